import type { Meta, StoryObj } from '@storybook/react-vite';
import * as icons from 'ayah-coach';
import { expect } from 'storybook/test';

// Every exported icon component (the `createIcon` factory is exported too, and is not one).
const all = Object.entries(icons).filter(
  (entry): entry is [string, (typeof icons)['XIcon']] =>
    typeof entry[1] === 'function' && /^[A-Z]\w*Icon$/.test(entry[0]),
);

const meta = {
  title: 'UI/Icons',
  component: icons.XIcon,
} satisfies Meta<typeof icons.XIcon>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Gallery: Story = {
  render: (args) => (
    <ul style={{ display: 'flex', gap: 16, flexWrap: 'wrap' }}>
      {all.map(([name, Icon]) => (
        <li key={name} style={{ display: 'grid', justifyItems: 'center', gap: 4, fontSize: 12 }}>
          <Icon {...args} />
          {name}
        </li>
      ))}
    </ul>
  ),
  play: async ({ canvasElement }) => {
    const svgs = canvasElement.querySelectorAll('svg[data-slot="icon"]');
    await expect(svgs.length).toBe(all.length);
    // Decorative: hidden from assistive technology and never a tab stop.
    for (const svg of svgs) {
      await expect(svg).toHaveAttribute('aria-hidden', 'true');
      await expect(svg).toHaveAttribute('focusable', 'false');
    }
  },
};
