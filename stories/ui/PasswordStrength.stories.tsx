import type { Meta, StoryObj } from '@storybook/react-vite';
import { PasswordStrength } from 'ayah-coach';
import { expect, within } from 'storybook/test';

const meta = {
  title: 'UI/PasswordStrength',
  component: PasswordStrength,
  args: { password: '' },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 320 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof PasswordStrength>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Checks the label, the number of filled segments and their colour class. */
function expectLevel(label: string | null, filled: number, colour?: string) {
  return async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    const canvas = within(canvasElement);
    const status = canvas.getByRole('status');
    if (label) await expect(status).toHaveTextContent(`Password strength: ${label}`);
    else await expect(status).toBeEmptyDOMElement();
    const segments = canvasElement.querySelectorAll('[data-slot="password-strength-segment"]');
    await expect(segments).toHaveLength(5);
    segments.forEach((segment, index) => {
      void expect(segment).toHaveClass(index < filled && colour ? colour : 'ay:bg-progress-track');
    });
  };
}

export const Empty: Story = { play: expectLevel(null, 0) };

export const VeryWeak: Story = {
  args: { password: 'abc' },
  play: expectLevel('Very Weak', 1, 'ay:bg-strength-very-weak'),
};

export const Weak: Story = {
  args: { password: 'abcdefgh' },
  play: expectLevel('Weak', 2, 'ay:bg-strength-weak'),
};

export const Fair: Story = {
  args: { password: 'Abcdefgh' },
  play: expectLevel('Fair', 3, 'ay:bg-strength-fair'),
};

export const Good: Story = {
  args: { password: 'Abcdefg1' },
  play: expectLevel('Good', 4, 'ay:bg-strength-good'),
};

export const Strong: Story = {
  args: { password: 'Abcdef1!' },
  play: async (context) => {
    await expectLevel('Strong', 5, 'ay:bg-strength-strong')(context);
    const segment = context.canvasElement.querySelector('[data-slot="password-strength-segment"]');
    // Strong is green (#22c55e).
    await expect(getComputedStyle(segment!).backgroundColor).toBe('rgb(34, 197, 94)');
  },
};
