import { EMAIL_CHANGE_TTL_HOURS, PASSWORD_RESET_TTL_MINUTES } from '@cats/contracts';
import type { ServerLanguage } from '../../i18n/localize.ts';
import type { Mail } from './mailer.ts';

/** Text for an HTML body: every value a person chose (a name, an address) goes through here. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A mail's words: paragraphs of plain text, and at most one link shown as a button. */
interface Content {
  subject: string;
  greeting: string;
  before: string[];
  link?: { url: string; label: string };
  after: string[];
}

function render(to: string, lang: ServerLanguage, c: Content): Mail {
  const text = [
    c.greeting,
    '',
    ...c.before.flatMap((p) => [p, '']),
    ...(c.link ? [c.link.url, ''] : []),
    ...c.after.flatMap((p) => [p, '']),
    '-- ',
    'Neighbourhood Cats',
    '',
  ].join('\n');
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const button = c.link
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(c.link.url)}" style="display:inline-block;padding:12px 20px;border-radius:8px;background:#b45309;color:#ffffff;text-decoration:none;font-weight:bold">${escapeHtml(c.link.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#555555;word-break:break-all">${escapeHtml(c.link.url)}</p>`
    : '';
  const html = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(c.subject)}</title></head>
<body style="margin:0;padding:24px;background:#faf7f2;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:16px;line-height:1.5;color:#1f1f1f">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:24px">
${p(c.greeting)}
${c.before.map(p).join('\n')}
${button}
${c.after.map(p).join('\n')}
<p style="margin:24px 0 0;color:#555555">Neighbourhood Cats</p>
</div>
</body></html>
`;
  return { to, subject: c.subject, text, html, links: c.link ? [c.link.url] : [] };
}

export function passwordResetMail(
  lang: ServerLanguage,
  v: { to: string; username: string; link: string },
): Mail {
  const minutes = PASSWORD_RESET_TTL_MINUTES;
  return render(
    v.to,
    lang,
    lang === 'es'
      ? {
          subject: 'Elige una contraseña nueva para Neighbourhood Cats',
          greeting: `Hola, ${v.username}:`,
          before: [
            `Alguien (esperamos que tú) ha pedido una contraseña nueva para tu cuenta de Neighbourhood Cats. Sigue este enlace en los próximos ${minutes} minutos para elegirla; solo funciona una vez.`,
          ],
          link: { url: v.link, label: 'Elegir una contraseña nueva' },
          after: [
            'Al cambiarla se cerrarán todas tus sesiones abiertas.',
            'Si no lo has pedido tú, ignora este correo: tu contraseña no cambia.',
          ],
        }
      : {
          subject: 'Choose a new password for Neighbourhood Cats',
          greeting: `Hello ${v.username},`,
          before: [
            `Someone (hopefully you) asked for a new password for your Neighbourhood Cats account. Follow this link within ${minutes} minutes to choose one; it works once.`,
          ],
          link: { url: v.link, label: 'Choose a new password' },
          after: [
            'Changing it signs you out everywhere.',
            'If you did not ask for this, ignore this mail: your password stays as it is.',
          ],
        },
  );
}

export function confirmEmailMail(
  lang: ServerLanguage,
  v: { to: string; username: string; link: string },
): Mail {
  const hours = EMAIL_CHANGE_TTL_HOURS;
  return render(
    v.to,
    lang,
    lang === 'es'
      ? {
          subject: 'Confirma tu nueva dirección de correo',
          greeting: `Hola, ${v.username}:`,
          before: [
            `Para usar ${v.to} en tu cuenta de Neighbourhood Cats, sigue este enlace en las próximas ${hours} horas. Hasta entonces no cambia nada.`,
          ],
          link: { url: v.link, label: 'Confirmar la dirección' },
          after: ['Si no lo has pedido tú, ignora este correo.'],
        }
      : {
          subject: 'Confirm your new email address',
          greeting: `Hello ${v.username},`,
          before: [
            `To use ${v.to} for your Neighbourhood Cats account, follow this link within ${hours} hours. Nothing changes until then.`,
          ],
          link: { url: v.link, label: 'Confirm the address' },
          after: ['If you did not ask for this, ignore this mail.'],
        },
  );
}

/** To the old address once the change is done: no link (nothing to click in a mail one did not expect). */
export function emailChangedNoticeMail(
  lang: ServerLanguage,
  v: { to: string; username: string; newEmail: string; origin: string },
): Mail {
  return render(
    v.to,
    lang,
    lang === 'es'
      ? {
          subject: 'Se ha cambiado la dirección de correo de tu cuenta',
          greeting: `Hola, ${v.username}:`,
          before: [
            `La dirección de correo de tu cuenta de Neighbourhood Cats ha pasado de ${v.to} a ${v.newEmail}. A partir de ahora inicias sesión con la nueva.`,
          ],
          after: [`Si no has sido tú, ponte en contacto cuanto antes con quienes gestionan ${v.origin}.`],
        }
      : {
          subject: 'The email address of your account was changed',
          greeting: `Hello ${v.username},`,
          before: [
            `The email address of your Neighbourhood Cats account was changed from ${v.to} to ${v.newEmail}. From now on you log in with the new one.`,
          ],
          after: [`If this was not you, contact the people who run ${v.origin} straight away.`],
        },
  );
}
