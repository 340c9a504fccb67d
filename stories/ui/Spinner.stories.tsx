import type { Meta, StoryObj } from '@storybook/react-vite';
import { Spinner } from 'ayah-coach';
import { expect, within } from 'storybook/test';

const meta = {
  title: 'UI/Spinner',
  component: Spinner,
} satisfies Meta<typeof Spinner>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Decorative: Story = {
  play: async ({ canvasElement }) => {
    const spinner = canvasElement.querySelector('[data-slot="spinner"]')!;
    await expect(spinner).toHaveAttribute('aria-hidden', 'true');
    await expect(getComputedStyle(spinner).animationName).toBe('ay-spin');
  },
};

export const Labelled: Story = {
  args: { label: 'Sending' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('img', { name: 'Sending' })).toBeInTheDocument();
  },
};
