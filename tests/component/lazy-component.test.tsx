/**
 * `lazyComponent`: a component whose module has loaded renders in the render that first meets it,
 * with no frame of its fallback (React.lazy alone suspends that render for a turn).
 */
import { render, screen } from '@testing-library/react';
import { type ComponentType, Suspense } from 'react';
import { describe, expect, it } from 'vitest';

import { loadReplyRenderer, ReplyMarkdown } from '../../src/chat/ReplyMarkdown';
import { lazyComponent } from '../../src/ui/lazy-component';

function Greeting({ name }: { name: string }) {
  return <p>Hello, {name}</p>;
}

/** A module of one component, loaded when asked (failing the first `failures` times). */
function greetingModule(failures = 0) {
  const asked = { count: 0 };
  const load = () =>
    ++asked.count <= failures
      ? Promise.reject(new Error('offline'))
      : Promise.resolve({ Greeting });
  return { asked, load };
}

/**
 * Renders the greeting inside a Suspense whose fallback counts the times it was put on the page.
 */
function renderGreeting(LazyGreeting: ComponentType<{ name: string }>, name: string) {
  const shown = { count: 0 };
  const fallback = (
    <p
      ref={(node) => {
        if (node) shown.count++;
      }}
    >
      Loading…
    </p>
  );
  render(
    <Suspense fallback={fallback}>
      <LazyGreeting name={name} />
    </Suspense>,
  );
  return shown;
}

describe('lazyComponent', () => {
  it('renders a preloaded component at once, without its fallback', async () => {
    const [LazyGreeting, preload] = lazyComponent(greetingModule().load, 'Greeting');
    preload();
    await Promise.resolve();

    const shown = renderGreeting(LazyGreeting, 'Sara');

    expect(screen.getByText('Hello, Sara')).toBeInTheDocument();
    expect(shown.count).toBe(0);
  });

  it('shows the fallback until a module not yet loaded arrives, then the component', async () => {
    const { asked, load } = greetingModule();
    const [LazyGreeting] = lazyComponent(load, 'Greeting');

    const shown = renderGreeting(LazyGreeting, 'Omar');

    expect(screen.getByText('Loading…')).toBeInTheDocument();
    expect(await screen.findByText('Hello, Omar')).toBeInTheDocument();
    expect(shown.count).toBe(1);
    expect(asked.count).toBe(1);
  });

  it('renders at once once a first render has loaded it', async () => {
    const [LazyGreeting] = lazyComponent(greetingModule().load, 'Greeting');
    renderGreeting(LazyGreeting, 'Lina');
    await screen.findByText('Hello, Lina');

    const shown = renderGreeting(LazyGreeting, 'Yusuf');

    expect(screen.getByText('Hello, Yusuf')).toBeInTheDocument();
    expect(shown.count).toBe(0);
  });

  it('is ready once loaded, and tries a failed load again', async () => {
    const { asked, load } = greetingModule(1);
    const [LazyGreeting, , ready] = lazyComponent(load, 'Greeting');

    await expect(ready()).rejects.toThrow('offline');
    await ready();
    const shown = renderGreeting(LazyGreeting, 'Hana');

    expect(screen.getByText('Hello, Hana')).toBeInTheDocument();
    expect(shown.count).toBe(0);
    expect(asked.count).toBe(2);
  });
});

describe('<ReplyMarkdown>', () => {
  it('renders a reply as markdown at once once the renderer has loaded', async () => {
    await loadReplyRenderer();

    const { container } = render(<ReplyMarkdown content="A **prime** has two factors." />);

    expect(screen.getByText('prime', { selector: 'strong' })).toBeInTheDocument();
    expect(container.querySelector('[data-slot="markdown-loading"]')).toBeNull();
  });
});
