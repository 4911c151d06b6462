import { describe, expect, it } from 'vitest';
import { frameEmbedHtml, sanitizeEmbedHtml } from './sanitize-html.js';

const clean = (html: string) => sanitizeEmbedHtml(html, { secret: 'S3cret' });

describe('sanitizeEmbedHtml', () => {
  it('sandboxes an iframe and joins it to the embed protocol', () => {
    expect(clean('<iframe src="https://video.test/e/1" width="640" height="360" frameborder="0" allowfullscreen></iframe>')).toBe(
      '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" src="https://video.test/e/1#?secret=S3cret" data-secret="S3cret" width="640" height="360" frameborder="0" allowfullscreen></iframe>',
    );
  });

  it('hides the iframe behind a blockquote fallback, as the original does', () => {
    const out = clean('<blockquote><a href="https://blog.test/post/">Post</a></blockquote><iframe src="https://blog.test/post/embed/"></iframe>');
    expect(out).toBe(
      '<blockquote class="wp-embedded-content" data-secret="S3cret"><a href="https://blog.test/post/">Post</a></blockquote>' +
        '<iframe style="position: absolute; visibility: hidden;" class="wp-embedded-content" sandbox="allow-scripts" security="restricted" src="https://blog.test/post/embed/#?secret=S3cret" data-secret="S3cret"></iframe>',
    );
  });

  it('drops scripts, styles and their content', () => {
    expect(clean('<p>a<script>alert(1)</script>b<style>p{}</style>c</p>')).toBe('<p>abc</p>');
    expect(clean('<SCRIPT type="text/javascript">x()</SCRIPT >ok')).toBe('ok');
    expect(clean('<script>never closed')).toBe('');
  });

  it('drops event handlers, style and unknown attributes', () => {
    expect(clean('<img src="https://i.test/a.png" onerror="alert(1)" style="x" alt="A" width="10">')).toBe('<img src="https://i.test/a.png" alt="A" width="10">');
    expect(clean('<a href="https://x.test/" onclick="alert(1)" target="_top">x</a>')).toBe('<a href="https://x.test/">x</a>');
  });

  it('keeps only absolute http(s) URLs, however they are spelled', () => {
    expect(clean('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(clean('<a href="jav&#x61;script:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(clean('<a href=" java\tscript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(clean('<a href="data:text/html,<script>">x</a>')).toBe('<a>x</a>');
    expect(clean('<a href="/relative">x</a>')).toBe('<a>x</a>');
    expect(clean('<iframe src="vbscript:x"></iframe>')).toBe('<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted"></iframe>');
    expect(clean('<a href="https://x.test/a?b=1&amp;c=2">x</a>')).toBe('<a href="https://x.test/a?b=1&amp;c=2">x</a>');
  });

  it('strips disallowed tags but keeps their text', () => {
    expect(clean('<form action="https://x.test"><input name=a><button>Go</button></form>')).toBe('Go');
    expect(clean('<h1 class="t">Title</h1>')).toBe('Title');
  });

  it('drops svg, object and template with their content', () => {
    expect(clean('<svg><script>alert(1)</script><svg onload=alert(1)></svg></svg>after')).toBe('after');
    expect(clean('<object data="x.swf"><embed src="x.swf"></object>ok')).toBe('ok');
    expect(clean('<template><img src=x onerror=alert(1)></template>ok')).toBe('ok');
  });

  it('escapes stray markup characters in text and closes open tags', () => {
    expect(clean('1 < 2 & 3 > 2 &amp; <p>open <em>em')).toBe('1 &lt; 2 &amp; 3 &gt; 2 &amp; <p>open <em>em</em></p>');
    expect(clean('<p>a</b>b</p></p>')).toBe('<p>ab</p>');
  });

  it('removes comments, doctype and processing instructions', () => {
    expect(clean('<!-- <script>x</script> -->a<!DOCTYPE html><?php x ?>b')).toBe('ab');
  });

  it('drops a tag cut off by the end of input', () => {
    expect(clean('ok<img src="https://i.test/a.png" onerror="x')).toBe('ok');
  });

  it('escapes attribute values and validates sizes', () => {
    expect(clean('<img src="https://i.test/a.png" alt=\'"><script>x</script>\' width="100px" height="50%">')).toBe(
      '<img src="https://i.test/a.png" alt="&quot;&gt;&lt;script&gt;x&lt;/script&gt;" height="50%">',
    );
  });

  it('limits iframe permissions and ignores iframe content', () => {
    expect(clean('<iframe src="https://v.test/" allow="camera; autoplay; fullscreen" sandbox="allow-same-origin"><script>x</script></iframe>')).toBe(
      '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" src="https://v.test/#?secret=S3cret" data-secret="S3cret" allow="autoplay; fullscreen"></iframe>',
    );
  });

  it('bounds nesting depth', () => {
    const out = clean('<div>'.repeat(200) + 'x');
    expect(out.match(/<div>/g)).toHaveLength(64);
    expect(out.endsWith('</div>')).toBe(true);
  });
});

describe('frameEmbedHtml (the original\'s filter of untrusted rich and video markup)', () => {
  const frame = (html: string, title?: string) => frameEmbedHtml(html, { secret: 'S3cret', title });
  const BARE = '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted"></iframe>';
  const HIDDEN = '<iframe style="position: absolute; visibility: hidden;" class="wp-embedded-content" sandbox="allow-scripts" security="restricted"></iframe>';

  it('is false without an iframe, however harmless the markup', () => {
    expect(frame('<b>Filtered</b><a href="https://x.test/">Unfiltered</a>')).toBe(false);
    expect(frame('<span>Hello</span><p>World</p>')).toBe(false);
    expect(frame('<div><p></p></div><script></script>')).toBe(false);
    expect(frame('<script><iframe src="https://x.test/"></iframe></script>')).toBe(false);
  });

  it('keeps one iframe and nothing around it', () => {
    expect(frame('<div><iframe></iframe><iframe></iframe><p></p></div>')).toBe(BARE);
    expect(frame('<script>var a = 1;</script>\n<iframe></iframe>\n<iframe></iframe>\n<p></p>')).toBe(BARE);
    expect(frame('<p>intro</p><iframe src="https://a.test/1"></iframe><iframe src="https://b.test/2"></iframe>')).toBe(
      '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" src="https://b.test/2#?secret=S3cret" data-secret="S3cret"></iframe>',
    );
  });

  it('gives the frame the secret in its src and data-secret', () => {
    expect(frame('<p></p><iframe onload="alert(1)" src="http://example.com/sample-page/"></iframe>')).toBe(
      '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" src="http://example.com/sample-page/#?secret=S3cret" data-secret="S3cret"></iframe>',
    );
  });

  it('keeps an opening blockquote as the fallback, with only its links, and hides the frame behind it', () => {
    expect(frame('<blockquote></blockquote><iframe></iframe>')).toBe(`<blockquote class="wp-embedded-content" data-secret="S3cret"></blockquote>${HIDDEN}`);
    expect(frame('<blockquote class="foo" id="bar"><strong><a href="https://x.test/" target="_blank">Read</a></strong></blockquote><iframe></iframe>')).toBe(
      `<blockquote class="wp-embedded-content" data-secret="S3cret"><a href="https://x.test/">Read</a></blockquote>${HIDDEN}`,
    );
  });

  it('drops a blockquote that does not open the markup', () => {
    expect(frame('<p>x</p><blockquote>quote</blockquote><iframe></iframe>')).toBe(BARE);
    expect(frame('<blockquote><iframe width="100"></iframe></blockquote>')).toBe(
      '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" width="100"></iframe>',
    );
  });

  it('titles an untitled frame with the object\'s title, and keeps a title it has', () => {
    expect(frame('<iframe title=""></iframe>', 'Hola')).toBe('<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" title="Hola"></iframe>');
    expect(frame('<iframe width=123></iframe>', 'A "b"')).toBe(
      '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" title="A &quot;b&quot;" width="123"></iframe>',
    );
    expect(frame('<iframe src="https://v.test/" title="Foo"></iframe>', 'Bar')).toContain(' title="Foo"');
    expect(frame('<iframe src="https://v.test/" title="Foo"></iframe>', 'Bar')).not.toContain('Bar');
  });
});
