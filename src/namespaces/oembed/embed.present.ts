/**
 * @module namespaces/oembed/embed.present
 * The `html` of our own oEmbed objects (`get_post_embed_html`): a blockquote fallback linking the
 * post, a sandboxed iframe to the post's embed view carrying a random secret, and the inline script
 * that lets the iframe resize itself and open links on the embedding page.
 */
import crypto from 'node:crypto';

const SECRET_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** `wp_generate_password( 10, false )`: letters and digits. */
export function embedSecret(length = 10): string {
  let out = '';
  for (let i = 0; i < length; i++) out += SECRET_CHARS[crypto.randomInt(SECRET_CHARS.length)];
  return out;
}

/** `esc_attr` / `esc_html` for values we build ourselves. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c]!);
}

/**
 * The embedding page's side of the embed protocol: an iframe posts `{message, value, secret}`;
 * `height` resizes it (200–1000 px) and hides the fallback blockquote, `link` navigates the top page
 * to a URL on the iframe's own host. Every frame is sent `ready` once the page has loaded.
 */
export const EMBED_SCRIPT = [
  '(function (w, d) {',
  "  'use strict';",
  '  if (!d.querySelectorAll || !w.addEventListener || !w.postMessage) return;',
  "  var sel = function (tag, s) { return d.querySelectorAll(tag + '.wp-embedded-content[data-secret=\"' + s + '\"]'); };",
  "  w.addEventListener('message', function (e) {",
  '    var m = e.data;',
  "    if (!m || typeof m !== 'object' || typeof m.secret !== 'string' || !/^[a-zA-Z0-9]+$/.test(m.secret)) return;",
  "    var frames = sel('iframe', m.secret), quotes = sel('blockquote', m.secret), i, j;",
  '    for (i = 0; i < frames.length; i++) {',
  '      var f = frames[i];',
  '      if (e.source !== f.contentWindow) continue;',
  "      for (j = 0; j < quotes.length; j++) quotes[j].style.display = 'none';",
  "      f.removeAttribute('style');",
  "      if (m.message === 'height') {",
  '        var h = parseInt(m.value, 10);',
  '        if (isNaN(h)) continue;',
  '        f.height = String(Math.min(Math.max(h, 200), 1000));',
  "      } else if (m.message === 'link') {",
  '        try {',
  "          var to = new URL(m.value), own = new URL(f.getAttribute('src'));",
  "          if (/^https?:$/.test(to.protocol) && to.host === own.host && d.activeElement === f) w.top.location.href = to.href;",
  '        } catch (x) { /* not a URL */ }',
  '      }',
  '    }',
  '  }, false);',
  '  var ready = function () {',
  "    var frames = d.querySelectorAll('iframe.wp-embedded-content[data-secret]'), i;",
  "    for (i = 0; i < frames.length; i++) if (frames[i].contentWindow) frames[i].contentWindow.postMessage({ message: 'ready', secret: frames[i].getAttribute('data-secret') }, '*');",
  '  };',
  "  if (d.readyState === 'loading') d.addEventListener('DOMContentLoaded', ready, false); else ready();",
  "  w.addEventListener('load', ready, false);",
  '})(window, document);',
].join('\n');

export interface EmbedHtmlInput {
  permalink: string;
  title: string;
  siteName: string;
  width: number;
  height: number;
  /** Fixed in tests; random otherwise. */
  secret?: string;
}

/** The embed markup of one post. */
export function embedHtml(input: EmbedHtmlInput): string {
  const secret = input.secret ?? embedSecret();
  const permalink = escapeHtml(input.permalink);
  const title = escapeHtml(input.title);
  const embedView = input.permalink.includes('?') ? `${input.permalink}&embed=true` : `${input.permalink.replace(/\/?$/, '/')}embed/`;
  const embedUrl = escapeHtml(`${embedView}#?secret=${secret}`);
  const frameTitle = `&#8220;${title}&#8221; &#8212; ${escapeHtml(input.siteName)}`;
  return (
    `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${permalink}">${title}</a></blockquote>` +
    `<iframe sandbox="allow-scripts" security="restricted" src="${embedUrl}" width="${input.width}" height="${input.height}"` +
    ` title="${frameTitle}" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>` +
    `<script>\n${EMBED_SCRIPT}\n</script>\n`
  );
}
