import { describe, expect, it } from 'vitest';
import { sanitizeEmbedHtml } from './sanitize-html.js';

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
