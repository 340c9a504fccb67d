/**
 * The one look of a page's title, wherever the title is drawn: an app page's h1, the phone header's
 * h1, or a widget's heading when it titles the page (Settings, Wallet, the goals board). One size and
 * one weight, so moving between pages never changes the title's look (issue 25 #16).
 */
export const pageTitleClass = 'ay:text-2xl ay:font-semibold';
