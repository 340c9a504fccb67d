/** The auth mails: friendly plain text and HTML, about Ayah the learning coach, one link each. */
import type { Mail } from '../mailer';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function layout(
  title: string,
  paragraphs: string[],
  button: { label: string; href: string },
): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('\n');
  const href = escapeHtml(button.href);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f5f7fb;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#1f2937">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(title)}</h1>
${body}
<p style="margin:24px 0"><a href="${href}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(button.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#6b7280">If the button does not work, copy this link into your browser:<br><a href="${href}" style="color:#4f46e5;word-break:break-all">${href}</a></p>
<p style="margin:24px 0 0;font-size:13px;color:#6b7280">— Ayah, your AI learning coach</p>
</div></body></html>`;
}

/** A mail of `lines` and one link: its plain text ends with `action: link`, its HTML with a button. */
function linkMail(
  to: string,
  link: string,
  mail: { subject: string; title: string; lines: string[]; action: string; button: string },
): Mail {
  return {
    to,
    subject: mail.subject,
    link,
    text: `${mail.lines.join('\n\n')}\n\n${mail.action}: ${link}\n\n— Ayah, your AI learning coach\n`,
    html: layout(mail.title, mail.lines, { label: mail.button, href: link }),
  };
}

export function verificationMail(to: string, name: string, link: string): Mail {
  return linkMail(to, link, {
    subject: 'Confirm your email for Ayah',
    title: 'Confirm your email',
    lines: [
      `Hi ${name},`,
      'Welcome to Ayah, your AI learning coach! Ayah helps you set weekly learning goals, track your progress and work through questions step by step.',
      'Please confirm your email address to finish creating your account. The link works for 24 hours.',
      'If you did not sign up for Ayah, you can ignore this email; no account will be activated.',
    ],
    action: 'Confirm your email',
    button: 'Confirm my email',
  });
}

export function resetMail(to: string, name: string, link: string): Mail {
  return linkMail(to, link, {
    subject: 'Reset your Ayah password',
    title: 'Reset your password',
    lines: [
      `Hi ${name},`,
      'Someone (hopefully you) asked to reset the password of your Ayah account.',
      'Choose a new password with the link below. It works once, for 1 hour.',
      'If you did not ask for this, you can ignore this email; your password stays the same.',
    ],
    action: 'Reset your password',
    button: 'Choose a new password',
  });
}
