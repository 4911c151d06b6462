import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  bodyHash, computeSignature, escapedRequestTarget, fileHmac, multipartSignedBody, normalizedQuery, requestNonce, signatureBase, signRequest,
} from './connector-signature.js';

// The cases of the original's SignatureTest (normalized_query_parameters, join_with_equal_sign).
describe('normalizedQuery (Jetpack_Signature::normalized_query_parameters)', () => {
  it('leaves the signature out', () => {
    expect(normalizedQuery('size=10&signature=super-secret')).toEqual(['size=10']);
  });

  it('sorts plain parameters first, then each array parameter with its own lines sorted', () => {
    const query =
      'size=10&highlight_fields%5B0%5D=title&highlight_fields%5B1%5D=content&aggregations%5Btaxonomy_1%5D%5Bterms%5D%5Bfield%5D=taxonomy.xposts.slug_slash_name' +
      '&aggregations%5Btaxonomy_1%5D%5Bterms%5D%5Bsize%5D=5&fields%5B0%5D=date&fields%5B1%5D=permalink.url.raw&query=journey';
    expect(normalizedQuery(query)).toEqual([
      'query=journey',
      'size=10',
      'aggregations[taxonomy_1][terms][field]=taxonomy.xposts.slug_slash_name',
      'aggregations[taxonomy_1][terms][size]=5',
      'fields[0]=date',
      'fields[1]=permalink.url.raw',
      'highlight_fields[0]=title',
      'highlight_fields[1]=content',
    ]);
  });

  it('sorts the members of nested arrays', () => {
    const query = 'people[0][last_name]=Scott&people[0][first_name]=Michael&people[0][city]=Boulder&people[1][first_name]=Jim&people[1][state]=Texas&people[1][last_name]=Halpert';
    expect(normalizedQuery(query)).toEqual([
      'people[0][city]=Boulder',
      'people[0][first_name]=Michael',
      'people[0][last_name]=Scott',
      'people[1][first_name]=Jim',
      'people[1][last_name]=Halpert',
      'people[1][state]=Texas',
    ]);
  });

  it('encodes names and values as rawurlencode (RFC 3986) after decoding them as PHP does', () => {
    expect(normalizedQuery('street=1600+Pennsylvania%20Ave&q=it%27s+(ok)*!~&a.b=1')).toEqual(['a_b=1', 'q=it%27s%20%28ok%29%2A%21~', 'street=1600%20Pennsylvania%20Ave']);
  });
});

describe('signatureBase (Jetpack_Signature::sign_request)', () => {
  const input = { token: 'key:1:7', timestamp: '1700000000', nonce: 'abcDEF123', bodyHash: 'h', method: 'post' };

  it('one line per piece: token, timestamp, nonce, body hash, method, host, port, path, then the query, ended by a newline', () => {
    expect(signatureBase({ ...input, url: 'http://Example.TEST/wp-json/ns/route?b=2&a=1&signature=x' })).toBe(
      'key:1:7\n1700000000\nabcDEF123\nh\nPOST\nexample.test\n80\n/wp-json/ns/route\na=1\nb=2\n',
    );
    expect(signatureBase({ ...input, url: 'https://example.test:8443/x' })).toBe('key:1:7\n1700000000\nabcDEF123\nh\nPOST\nexample.test\n8443\n/x\n');
    expect(signatureBase({ ...input, url: 'https://example.test/x' })).toContain('\n443\n/x\n');
  });

  it('the port is the URL\'s, else 80 for http and 443 for https; the path is taken as it is, empty when none', () => {
    expect(signatureBase({ ...input, url: 'http://example.test:8080' })).toBe('key:1:7\n1700000000\nabcDEF123\nh\nPOST\nexample.test\n8080\n\n');
    expect(signatureBase({ ...input, url: 'https://example.test:/a/../b%2f' })).toContain('\n443\n/a/../b%2f\n');
    expect(signatureBase({ ...input, url: 'http://[::1]:81/x' })).toContain('\n[::1]\n81\n/x\n');
    expect(() => signatureBase({ ...input, url: 'ftp://example.test/x' })).toThrow(/port is unknown/);
  });

  it('the token piece ends at a first dot', () => {
    expect(signatureBase({ ...input, token: 'key:1:7.extra', url: 'http://example.test/' }).split('\n')[0]).toBe('key:1:7');
  });
});

// Known vectors: the requests of Jetpack's REST authentication tests (test_jetpack_rest_api_get_authentication_success,
// test_jetpack_rest_api_post_authentication_success), their signatures computed independently with
// `openssl dgst -sha1 -hmac secret -binary | base64` over the normalized string the test spells out.
describe('the signature: base64 HMAC-SHA1 under the token secret, the body hash base64 SHA-1', () => {
  const common = { token: 'pretend_this_is_valid:1:1', timestamp: '1700000000', nonce: 'testing123' };

  it('a GET without a body', () => {
    const url = 'http://example.org/jetpack/v4/module/protect?qstest=yep';
    expect(computeSignature('secret', { ...common, bodyHash: '', method: 'GET', url })).toBe('i1UAjQ7xM5kRw/Ud3knI9nkUhhY=');
  });

  it('a POST with a JSON body', () => {
    expect(bodyHash('{"modules":[]}')).toBe('FHAh50hZ/I5jlh5uNw0NNPzD/9c=');
    const url = 'http://example.org/jetpack/v4/module/all/active?qstest=yep';
    expect(computeSignature('secret', { ...common, bodyHash: 'FHAh50hZ/I5jlh5uNw0NNPzD/9c=', method: 'POST', url })).toBe('EWAdjjWfRttMl6IyBuUcbG7hOms=');
  });

  it('no body, or an empty one, has no hash', () => {
    expect(bodyHash(undefined)).toBe('');
    expect(bodyHash('')).toBe('');
  });

  it('signRequest stamps the hub\'s time (this site\'s plus the offset) and signs what it sends', () => {
    const now = new Date(1_700_000_000_000);
    const fields = signRequest('key.secret', 7, 'post', 'https://hub.test/sites/1/x', '{"a":1}', now, -120);
    expect(fields).toMatchObject({ token: 'key:1:7', timestamp: '1699999880', 'body-hash': bodyHash('{"a":1}') });
    const expected = crypto
      .createHmac('sha1', 'secret')
      .update(`key:1:7\n1699999880\n${fields.nonce}\n${fields['body-hash']}\nPOST\nhub.test\n443\n/sites/1/x\n`)
      .digest('base64');
    expect(fields.signature).toBe(expected);
  });
});

describe('multipart bodies (Manager::verify_xml_rpc_signature with _jetpack_is_multipart)', () => {
  it('are signed as their fields joined as http_build_query joins them (Jetpack\'s multipart test body)', () => {
    const body = multipartSignedBody({ _jetpack_is_multipart: '1', modules: ['nope'] });
    expect(body).toBe('_jetpack_is_multipart=1&modules%5B0%5D=nope');
    expect(bodyHash(body)).toBe('WqS8OuQPW9hUdjEjAI0LlQMqaI0=');
  });

  it('a file stands in as its _jetpack_file_hmac_ value; names sorted byte-wise; values urlencoded (space +, ~ encoded)', () => {
    const fields = { b: '1', _jetpack_file_hmac_media: 'abc:salt', a: 'x y~!', media: 'replaced', _jetpack_is_multipart: '1', n: { k: 'v', j: ['1', '2'] } };
    expect(multipartSignedBody(fields)).toBe('_jetpack_is_multipart=1&a=x+y%7E%21&b=1&media=abc%3Asalt&n%5Bk%5D=v&n%5Bj%5D%5B0%5D=1&n%5Bj%5D%5B1%5D=2');
  });

  it('a file HMAC is the hex HMAC-SHA1 of its bytes keyed with salt + token', () => {
    expect(fileHmac(Buffer.from('PK\x03\x04theme', 'latin1'), 'pepper', 'blogkey.blogsecret')).toBe('dba9a945c7c0bb8e44b4b0645bab6993b9a404fe');
  });
});

it('the request target is read as esc_url_raw leaves it', () => {
  expect(escapedRequestTarget('/p?a=1 2&b="x"&c[d]=1%0D%0a<&e=%0%0Dd')).toBe('/p?a=1%202&b=x&c%5Bd%5D=1&e=');
  expect(escapedRequestTarget('/wp-json/x;//y?q=ü')).toBe('/wp-json/x://y?q=ü');
});

it('request nonces are 10 letters and digits, as the original accepts them', () => {
  const nonces = new Set(Array.from({ length: 50 }, () => requestNonce()));
  expect(nonces.size).toBe(50);
  for (const n of nonces) expect(n).toMatch(/^[A-Za-z0-9]{10}$/);
});
