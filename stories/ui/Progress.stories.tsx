import type { Meta, StoryObj } from '@storybook/react-vite';
import { Progress } from 'ayah-coach';
import { expect, within } from 'storybook/test';

const meta = {
  title: 'UI/Progress',
  component: Progress,
  args: { value: 10, 'aria-label': 'Math: problems solved' },
  argTypes: { value: { control: { type: 'range', min: 0, max: 100 } } },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 320 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof Progress>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Checks the ARIA value, the colour band and the filled width. */
function expectBar(value: number, tone: string, colour: string) {
  return async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    const bar = within(canvasElement).getByRole('progressbar', { name: 'Math: problems solved' });
    await expect(bar).toHaveAttribute('aria-valuenow', String(value));
    await expect(bar).toHaveAttribute('aria-valuemin', '0');
    await expect(bar).toHaveAttribute('aria-valuemax', '100');
    await expect(bar).toHaveAttribute('data-tone', tone);
    const indicator = bar.querySelector<HTMLElement>('[data-slot="progress-indicator"]')!;
    await expect(indicator).toHaveClass(`ay:bg-progress-${tone}`);
    await expect(getComputedStyle(indicator).backgroundColor).toBe(colour);
    await expect(indicator.style.width).toBe(`${value}%`);
  };
}

export const Low: Story = { args: { value: 10 }, play: expectBar(10, 'low', 'rgb(239, 68, 68)') };

export const Mid: Story = { args: { value: 50 }, play: expectBar(50, 'mid', 'rgb(234, 179, 8)') };

export const High: Story = { args: { value: 80 }, play: expectBar(80, 'high', 'rgb(34, 197, 94)') };

export const Complete: Story = {
  args: { value: 100 },
  play: expectBar(100, 'high', 'rgb(34, 197, 94)'),
};

/** Progress is capped at 100 %. */
export const OverTarget: Story = {
  args: { value: 140 },
  play: expectBar(100, 'high', 'rgb(34, 197, 94)'),
};
