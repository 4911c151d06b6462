import { describe, expect, it } from 'vitest';
import { EMBED_SCRIPT, embedHtml, embedSecret } from './embed.present.js';

describe('embedHtml', () => {
  it('builds the blockquote fallback, the sandboxed iframe with the secret, then the script', () => {
    const html = embedHtml({ permalink: 'http://example.test/event/gala/', title: 'Gala <Night> & "More"', siteName: 'Site', width: 600, height: 338, secret: 'AbCdE12345' });
    expect(html).toBe(
      '<blockquote class="wp-embedded-content" data-secret="AbCdE12345"><a href="http://example.test/event/gala/">Gala &lt;Night&gt; &amp; &quot;More&quot;</a></blockquote>' +
        '<iframe sandbox="allow-scripts" security="restricted" src="http://example.test/event/gala/embed/#?secret=AbCdE12345" width="600" height="338"' +
        ' title="&#8220;Gala &lt;Night&gt; &amp; &quot;More&quot;&#8221; &#8212; Site" data-secret="AbCdE12345" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>' +
        `<script>\n${EMBED_SCRIPT}\n</script>\n`,
    );
  });

  it('uses the query form of the embed view for plain permalinks', () => {
    expect(embedHtml({ permalink: 'http://example.test/?p=5', title: 't', siteName: 's', width: 200, height: 200, secret: 'x' })).toContain(
      'src="http://example.test/?p=5&amp;embed=true#?secret=x"',
    );
  });

  it('makes a fresh 10-character alphanumeric secret each time', () => {
    const a = embedSecret();
    expect(a).toMatch(/^[a-zA-Z0-9]{10}$/);
    expect(embedSecret()).not.toBe(a);
    const html = embedHtml({ permalink: 'http://example.test/event/a/', title: 't', siteName: 's', width: 600, height: 338 });
    const secrets = [...html.split("<script>")[0]!.matchAll(/data-secret="([^"]+)"/g)].map((m) => m[1]);
    expect(secrets).toHaveLength(2);
    expect(secrets[0]).toBe(secrets[1]);
    expect(html).toContain(`#?secret=${secrets[0]}"`);
  });

  it('ships a script that cannot close its own tag early', () => {
    expect(EMBED_SCRIPT).not.toMatch(/<\/script/i);
    expect(() => new Function(EMBED_SCRIPT)).not.toThrow();
  });
});
