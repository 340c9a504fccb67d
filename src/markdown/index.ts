// The streaming markdown and math renderer (`ayah-coach/markdown`): what the chat shows a reply with,
// useful on its own wherever model output is shown as it streams.
export { Markdown, type MarkdownProps } from './Markdown';
