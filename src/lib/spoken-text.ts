/**
 * A finished reply as a screen reader should hear it: markdown's marks gone (`**`, backticks, `#`,
 * link targets, table pipes) and every formula in words ("x squared plus 1 over 2"). Pure and small,
 * so a live region can use it without loading the markdown renderer or KaTeX.
 */

const GREEK =
  'alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|iota|kappa|lambda|mu|nu|xi|pi|rho|sigma|tau|upsilon|phi|varphi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Pi|Sigma|Phi|Psi|Omega';

/** LaTeX commands and their words; longer names first where one is a prefix of another. */
const WORDS: [RegExp, string][] = [
  [/\\(?:left|right|big|Big|bigg|Bigg)(?![a-zA-Z])/g, ''],
  [/\\(?:displaystyle|textstyle|limits|nolimits|,|;|!|quad|qquad)(?![a-zA-Z])/g, ' '],
  [/\\(?:times|cdot|ast)(?![a-zA-Z])/g, ' times '],
  [/\\div(?![a-zA-Z])/g, ' divided by '],
  [/\\pm(?![a-zA-Z])/g, ' plus or minus '],
  [/\\mp(?![a-zA-Z])/g, ' minus or plus '],
  [/\\(?:leq|le)(?![a-zA-Z])/g, ' is less than or equal to '],
  [/\\(?:geq|ge)(?![a-zA-Z])/g, ' is greater than or equal to '],
  [/\\(?:neq|ne)(?![a-zA-Z])/g, ' is not equal to '],
  [/\\approx(?![a-zA-Z])/g, ' is approximately '],
  [/\\infty(?![a-zA-Z])/g, ' infinity '],
  [/\\(?:to|rightarrow)(?![a-zA-Z])/g, ' tends to '],
  [/\\Rightarrow(?![a-zA-Z])/g, ' implies '],
  [/\\sum(?![a-zA-Z])/g, ' the sum '],
  [/\\int(?![a-zA-Z])/g, ' the integral '],
  [/\\lim(?![a-zA-Z])/g, ' the limit '],
  [/\\(sin|cos|tan|log|ln|exp)(?![a-zA-Z])/g, ' $1 '],
  [/\\degree(?![a-zA-Z])/g, ' degrees '],
  [/\\%/g, ' percent'],
  [new RegExp(`\\\\(${GREEK})(?![a-zA-Z])`, 'g'), ' $1 '],
];

/** The spoken form of one LaTeX formula (a readable fallback, not a full MathSpeak). */
export function spokenMath(latex: string): string {
  let text = latex.replace(/\^\s*\{?\s*\\circ\s*\}?/g, ' degrees ');
  // Innermost groups first, so nested fractions and roots read in order.
  for (let i = 0; i < 8; i++) {
    const before = text;
    text = text
      .replace(/\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}/g, ' $1 over $2 ')
      .replace(/\\sqrt\s*\[([^\]]*)\]\s*\{([^{}]*)\}/g, ' the $1th root of $2 ')
      .replace(/\\sqrt\s*\{([^{}]*)\}/g, ' the square root of $1 ')
      .replace(/\\(?:text|mathrm|mathbf|mathit|operatorname)\s*\{([^{}]*)\}/g, ' $1 ')
      .replace(/\^\s*\{\s*2\s*\}|\^2(?!\d)/g, ' squared ')
      .replace(/\^\s*\{\s*3\s*\}|\^3(?!\d)/g, ' cubed ')
      .replace(/\^\s*\{([^{}]*)\}/g, ' to the power $1 ')
      .replace(/\^\s*(\\?[a-zA-Z0-9])/g, ' to the power $1 ')
      .replace(/_\s*\{([^{}]*)\}/g, ' sub $1 ')
      .replace(/_\s*([a-zA-Z0-9])/g, ' sub $1 ');
    if (text === before) break;
  }
  for (const [pattern, words] of WORDS) text = text.replace(pattern, words);
  text = text
    .replace(/\\[a-zA-Z]+/g, ' ')
    .replace(/[{}]/g, ' ')
    .replace(/\s*=\s*/g, ' equals ')
    .replace(/\s*\+\s*/g, ' plus ')
    .replace(/(\S)\s*-\s*|^\s*-\s*/g, (_m, left?: string) => (left ? `${left} minus ` : 'minus '))
    .replace(/\s*<\s*/g, ' is less than ')
    .replace(/\s*>\s*/g, ' is greater than ')
    .replace(/\s*\/\s*/g, ' over ');
  return text.replace(/\s+/g, ' ').trim();
}

/** A whole reply in plain spoken text: markdown marks removed, formulas in words. */
export function spokenText(markdown: string): string {
  const keep: string[] = [];
  const hold = (value: string) => `\uE000${keep.push(value) - 1}\uE000`;
  let text = markdown.replace(/\r\n?/g, '\n');

  // Code keeps its characters, without fences or backticks.
  text = text.replace(/^(```|~~~)[^\n]*\n([\s\S]*?)(?:^\1[^\n]*$|(?![\s\S]))/gm, (_m, _f, code) =>
    hold(String(code).trim()),
  );
  text = text.replace(/`+([^`\n]+?)`+/g, (_m, code: string) => hold(code));

  // Formulas: display, then inline (the same delimiters the renderer accepts).
  const say = (_m: string, latex: string) => hold(` ${spokenMath(latex)} `);
  text = text
    .replace(/\$\$([\s\S]+?)\$\$/g, say)
    .replace(/\\\[([\s\S]+?)\\\]/g, say)
    .replace(/\\\(([\s\S]+?)\\\)/g, say)
    .replace(/(?<![\\$\w])\$(?!\s)([^$\n]+?)(?<!\s)\$(?![\w$])/g, say);

  text = text
    .replace(/<[^>\n]+>/g, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/^[ \t]{0,3}#{1,6}\s+/gm, '')
    .replace(/^[ \t]{0,3}>\s?/gm, '')
    .replace(/^[ \t]*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?[ \t]*(?:\n|$)/gm, '')
    .replace(/^[ \t]*\|(.*)\|[ \t]*$/gm, (_m, cells: string) =>
      cells
        .split('|')
        .map((cell) => cell.trim())
        .join(', '),
    )
    .replace(/^[ \t]*[-*+]\s+\[([ xX])\]\s+/gm, '')
    .replace(/^[ \t]*[-*+]\s+/gm, '')
    .replace(/^[ \t]*([-*_])(\s*\1){2,}[ \t]*$/gm, '')
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(?<![\w*])([*_])(?=\S)([^*_\n]*?\S)\1(?![\w*])/g, '$2')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1');

  text = text.replace(/\uE000(\d+)\uE000/g, (_m, i: string) => keep[Number(i)] ?? '');
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .filter((line, i, lines) => line !== '' || (i > 0 && lines[i - 1] !== ''))
    .join('\n')
    .trim();
}
