// The streaming markdown and math renderer (`ayah-coach/markdown`): what the chat shows a reply with,
// useful on its own wherever model output is shown as it streams.
export { Markdown, type MarkdownProps } from './Markdown';
// KaTeX loads with the first formula; `preloadMath()` fetches it before (a page about to show maths,
// a story that must show rendered maths from its first frame). Resolves once it is in.
export { preloadMath } from './math';
