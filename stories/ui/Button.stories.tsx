import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from 'ayah-coach';
import { TrashIcon } from 'ayah-coach';
import { expect, fn, userEvent, within } from 'storybook/test';

const meta = {
  title: 'UI/Button',
  component: Button,
  args: { children: 'Save goal', onClick: fn() },
  argTypes: {
    variant: {
      control: 'select',
      options: ['default', 'secondary', 'outline', 'ghost', 'destructive', 'link'],
    },
    size: { control: 'select', options: ['sm', 'md', 'lg', 'icon'] },
  },
} satisfies Meta<typeof Button>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Primary: Story = {
  play: async ({ canvasElement, args }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Save goal' });
    await expect(button).toHaveAttribute('type', 'button');
    await expect(button).toHaveClass('ay:bg-primary');
    // Reached by Tab and pressed with Enter and Space.
    await userEvent.tab();
    await expect(button).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard(' ');
    await expect(args.onClick).toHaveBeenCalledTimes(2);
  },
};

export const Secondary: Story = {
  args: { variant: 'secondary', children: 'Skip for now' },
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Skip for now' });
    await expect(button).toHaveClass('ay:bg-secondary');
  },
};

export const Outline: Story = {
  args: { variant: 'outline', children: 'Cancel' },
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Cancel' });
    await expect(button).toHaveClass('ay:border-border');
  },
};

export const Ghost: Story = {
  args: { variant: 'ghost', children: 'New Chat' },
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: 'New Chat' });
    await expect(button).toHaveAttribute('data-variant', 'ghost');
  },
};

export const Destructive: Story = {
  args: { variant: 'destructive', children: 'Delete' },
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Delete' });
    await expect(button).toHaveClass('ay:bg-destructive');
    // The token resolves to a real colour (the scoped stylesheet is loaded): red, not transparent.
    await expect(getComputedStyle(button).backgroundColor).toBe('rgb(185, 28, 28)');
  },
};

export const Link: Story = {
  args: { variant: 'link', children: 'Back to Login' },
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Back to Login' });
    await expect(button).toHaveClass('ay:text-primary');
  },
};

export const Sizes: Story = {
  render: (args) => (
    <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
      <Button {...args} size="sm">
        Small
      </Button>
      <Button {...args} size="md">
        Medium
      </Button>
      <Button {...args} size="lg">
        Large
      </Button>
      <Button {...args} size="icon" variant="outline" aria-label="Delete goal">
        <TrashIcon />
      </Button>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const heights = ['Small', 'Medium', 'Large'].map(
      (name) => canvas.getByRole('button', { name }).getBoundingClientRect().height,
    );
    await expect(heights).toEqual([32, 40, 48]);
    // The icon-only button is named by its aria-label; its icon is hidden from assistive technology.
    const icon = canvas.getByRole('button', { name: 'Delete goal' });
    await expect(icon.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
  },
};

export const Loading: Story = {
  args: { loading: true, children: 'Resetting...' },
  play: async ({ canvasElement, args }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Resetting...' });
    await expect(button).toHaveAttribute('aria-busy', 'true');
    await expect(button).toHaveAttribute('aria-disabled', 'true');
    await expect(button.querySelector('[data-slot="spinner"]')).toBeInTheDocument();
    // Still focusable, so focus is not lost while busy, but pressing it does nothing.
    await userEvent.tab();
    await expect(button).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await userEvent.click(button);
    await expect(args.onClick).not.toHaveBeenCalled();
  },
};

export const Disabled: Story = {
  args: { disabled: true, children: 'Send' },
  play: async ({ canvasElement, args }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Send' });
    await expect(button).toBeDisabled();
    await userEvent.tab();
    await expect(button).not.toHaveFocus();
    await userEvent.click(button, { pointerEventsCheck: 0 });
    await expect(args.onClick).not.toHaveBeenCalled();
  },
};
