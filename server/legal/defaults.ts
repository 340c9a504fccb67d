import { TRUSTED_ADULT_NOTICE } from 'ayah-coach/rules';

/**
 * The texts served when the school has not put its own (`terms.md`, `privacy.md`) in the data dir:
 * complete as they stand, since students read them. The operator is told how to replace them in the
 * start log and the README, never on the page.
 */
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
`,
  privacy: `# Privacy notice

This notice explains what Ayah keeps about you, why, who can see it and how long it is kept. Ayah is
run by your school, which decides how it is used and is responsible for your information.

## What we keep
- Your account: your name, your email address (or wallet address, or the id your school's portal gives
  you), and a profile picture if you add one. Your password is kept only as a scrambled code that
  cannot be turned back into the password.
- Your chats with the tutor, your goals, your progress and your points, so you can come back to them.
- A short learning memory (subjects and topics you worked on) that helps the tutor help you.
- If a message looks like you might be in danger or shares private details such as a phone number or
  a home address, a note that this happened, so that help can be offered. If you are in a class, the
  message and Ayah's answer are kept with that note, for the trusted adults at your school only.

## What we do with it
We use it only to run Ayah for you and your school: to answer your questions, show your goals and
points, and keep your account safe. We do not sell it, we do not show you advertising, and we do not
use it to build a profile of you for anyone else.

## Who can see it
You, and the people your school allows to run Ayah. If your school has connected an AI model, your
chat messages are sent to it to write the tutor's answers, and to nothing else.

## How long we keep it
As long as your account exists. When you delete your account, everything Ayah keeps about you is
deleted with it, at once, except your school's safeguarding record: that a safety alert happened, when,
in which class and what the adults did (never what you wrote).

## Keeping you safe
${TRUSTED_ADULT_NOTICE} If you are in a class, your teacher sees how your learning goes: your goals,
your streak and how many questions you asked.

## Your choices
You can see and download everything Ayah keeps about you, and delete your account, from Settings.
You can ask a parent, carer or teacher to help you do this.

## Questions
Ask your teacher or your school's data protection contact. You, or a parent or carer, can ask the
school what it keeps about you, to correct it, or to delete it.
`,
} as const;

export type LegalPageName = keyof typeof DEFAULT_PAGES;
