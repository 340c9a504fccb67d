import { loadToaster } from '../src/ui/toast';

// The toast area's code loads apart from a page's (src/ui/toast.tsx): loaded here once a file, so a
// test's first toast shows at once and never waits within findBy's second for that module on a busy
// runner. Not for the files about a first load (vitest.config.ts), where it is still on its way.
await loadToaster();
