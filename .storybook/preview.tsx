import 'ayah-coach/styles.css';

import type { Preview } from '@storybook/react-vite';
import { AyahRoot, loadToaster, type Theme, Toaster } from 'ayah-coach';

const preview: Preview = {
  globalTypes: {
    theme: {
      description: 'Colour scheme',
      toolbar: { title: 'Theme', icon: 'mirror', items: ['light', 'dark'], dynamicTitle: true },
    },
  },
  initialGlobals: { theme: 'light' },
  // The chat's reply renderer is a chunk the chat loads on demand; a streaming reply shows the
  // typing dots until it has come, and a formula its source until KaTeX has. Stories show the
  // rendered state from their first frame: both are loaded before any story renders. So is the toast
  // area's code (it loads apart from a page's first screen), so a play function's toast is never
  // waiting for a chunk.
  loaders: [
    async () => {
      const [{ loadReplyRenderer }, { preloadMath }] = await Promise.all([
        import('ayah-coach/chat'),
        import('ayah-coach/markdown'),
        loadToaster(),
      ]);
      await Promise.all([loadReplyRenderer(), preloadMath()]);
      return {};
    },
  ],
  decorators: [
    (Story, { globals }) => (
      // The root fills the frame, so a dark story is dark to its edges, not only behind its content.
      <AyahRoot
        theme={(globals.theme as Theme | undefined) ?? 'light'}
        className="ay:p-6"
        style={{ minHeight: '100vh' }}
      >
        <Story />
        <Toaster />
      </AyahRoot>
    ),
  ],
  parameters: {
    layout: 'fullscreen',
    controls: { matchers: { color: /(background|color)$/i, date: /Date$/i } },
    // Story tests fail on any serious or critical axe-core violation.
    a11y: { test: 'error', options: { resultTypes: ['violations'] } },
  },
};

export default preview;
