import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeSignature, normalizedQuery, requestNonce, signatureBase } from './connector-signature.js';

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

  it('the signature is the base64 HMAC-SHA256 of that text under the token secret', () => {
    const expected = crypto.createHmac('sha256', 'secret').update('key:1:7\n1700000000\nabcDEF123\nh\nPOST\nexample.test\n80\n/p\n_for=jetpack\n').digest('base64');
    expect(computeSignature('secret', { ...input, url: 'http://example.test/p?_for=jetpack' })).toBe(expected);
  });
});

it('request nonces are 10 letters and digits, as the original accepts them', () => {
  const nonces = new Set(Array.from({ length: 50 }, () => requestNonce()));
  expect(nonces.size).toBe(50);
  for (const n of nonces) expect(n).toMatch(/^[A-Za-z0-9]{10}$/);
});
