import { TRUSTED_ADULT_NOTICE } from 'ayah-coach/rules';

/** The texts served when the school has not put its own under the data dir. Plain, short, replaceable. */
export const DEFAULT_PAGES = {
  terms: `# Terms of use

Ayah is a learning coach run by your school. By using it you agree to these terms.

## Using Ayah
- Use Ayah for learning: ask questions, set weekly goals and track your progress.
- Be kind. Do not use Ayah to bully, cheat in graded work against your teacher's rules, or share
  anything harmful.
- Keep your password to yourself. You are responsible for what is done with your account.

## Answers from the tutor
Ayah's tutor is an AI. It can be wrong: check important answers with your teacher or your books.

## Points and rewards
Points and reward tokens have no cash value unless your school says otherwise, and the school may
change or end the rewards programme.

## Changes
Your school may update these terms. The current version is always on this page.

*Your school can replace this text: put its own in \`terms.md\` in the server's data directory.*
`,
  privacy: `# Privacy notice

This notice explains what Ayah keeps about you and why.

## What we keep
- Your account: name, email address (or wallet address), and a profile picture if you add one.
- Your chats with the tutor, your goals and your points, so you can come back to them.
- A short learning memory (subjects and topics you worked on) that helps the tutor help you.

## What we do with it
We use it only to run Ayah for you and your school. We do not sell it or show you advertising.

## Keeping you safe
${TRUSTED_ADULT_NOTICE} If you are in a class, your teacher sees how your learning goes: your goals,
your streak and how many questions you asked.

## Your choices
You can download everything Ayah keeps about you, and delete your account, from Settings.

## Questions
Ask your school's data protection contact.

*Your school can replace this text: put its own in \`privacy.md\` in the server's data directory.*
`,
} as const;

export type LegalPageName = keyof typeof DEFAULT_PAGES;
