/**
 * After a story file, its last story is unmounted: left mounted on the shared page (`isolate: false`),
 * its timers kept running for the rest of the run. Storybook unmounts a story when the next one runs,
 * so an empty one runs last (composed then, once the project's annotations are set).
 */
import { composeStory } from 'storybook/preview-api';
import { afterAll } from 'vitest';

afterAll(() => composeStory({ render: () => null }, { title: 'Teardown' }).run());
