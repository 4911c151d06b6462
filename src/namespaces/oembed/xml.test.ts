import { describe, expect, it } from 'vitest';
import { toOembedXml } from './xml.js';

describe('toOembedXml', () => {
  it('writes one escaped element per field under <oembed>', () => {
    expect(toOembedXml({ version: '1.0', title: 'Tom & "Jerry"', width: 600, html: '<a href="x">y</a>' })).toBe(
      '<?xml version="1.0"?>\n<oembed><version>1.0</version><title>Tom &amp; &quot;Jerry&quot;</title><width>600</width>' +
        '<html>&lt;a href=&quot;x&quot;&gt;y&lt;/a&gt;</html></oembed>\n',
    );
  });

  it('nests objects and names list items oembed, as the original does', () => {
    expect(toOembedXml({ code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } })).toBe(
      '<?xml version="1.0"?>\n<oembed><code>oembed_invalid_url</code><message>Not Found</message><data><status>404</status></data></oembed>\n',
    );
    expect(toOembedXml({ list: ['a', 'b'], yes: true, no: false })).toContain('<list><oembed>a</oembed><oembed>b</oembed></list><yes>1</yes><no></no>');
  });

  it('nests to any depth, lists of objects included', () => {
    expect(toOembedXml({ foo: { bar: { ping: 'pong' } }, hello: 'world' })).toContain('<oembed><foo><bar><ping>pong</ping></bar></foo><hello>world</hello></oembed>');
    expect(toOembedXml({ items: [{ foo: ['bar'] }, 'helloworld'] })).toContain(
      '<items><oembed><foo><oembed>bar</oembed></foo></oembed><oembed>helloworld</oembed></items>',
    );
  });
});
