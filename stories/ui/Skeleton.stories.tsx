import type { Meta, StoryObj } from '@storybook/react-vite';
import { LoadingStatus, Skeleton } from 'ayah-coach';
import { expect, within } from 'storybook/test';

const meta = {
  title: 'UI/Skeleton',
  component: Skeleton,
  args: { style: { height: 16, width: 240 } },
} satisfies Meta<typeof Skeleton>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Block: Story = {
  play: async ({ canvasElement }) => {
    const block = canvasElement.querySelector('[data-slot="skeleton"]')!;
    await expect(block).toHaveAttribute('aria-hidden', 'true');
    await expect(block).toHaveClass('ay:animate-pulse');
    await expect(getComputedStyle(block).animationName).toBe('ay-pulse');
  },
};

/** A loading view: skeletons for the eye, 'Loading…' for screen readers. */
export const LoadingView: Story = {
  render: () => (
    <LoadingStatus style={{ maxWidth: 320 }}>
      <Skeleton style={{ height: 20, width: '60%' }} />
      <Skeleton style={{ height: 14 }} />
      <Skeleton style={{ height: 14, width: '80%' }} />
    </LoadingStatus>
  ),
  play: async ({ canvasElement }) => {
    const status = within(canvasElement).getByRole('status');
    await expect(status).toHaveTextContent('Loading…');
    // The label is visually hidden but still in the accessibility tree.
    const label = within(status).getByText('Loading…');
    await expect(label).toHaveClass('ay:sr-only');
    await expect(label.getBoundingClientRect().width).toBeLessThanOrEqual(1);
  },
};

export const VisibleLabel: Story = {
  render: () => <LoadingStatus label="Loading conversation..." showLabel />,
  play: async ({ canvasElement }) => {
    const label = within(canvasElement).getByText('Loading conversation...');
    await expect(label).toBeVisible();
    await expect(label.getBoundingClientRect().width).toBeGreaterThan(1);
  },
};
