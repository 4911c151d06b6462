import { describe, expect, it } from 'vitest';
import { addQueryArgs, validateRedirectUrl } from './redirects.js';

// The cases of WordPress's tests of `wp_is_authorize_application_redirect_url_valid` and
// `wp_is_authorize_application_password_request_valid`.
describe('validateRedirectUrl (authorize-application success_url / reject_url)', () => {
  it.each([
    '',
    'https://example.org',
    'https://example.org/callback',
    'https://example.org:8443/callback',
    'https://example.org/callback?existing=param',
    'wordpress://example',
    'myapp://callback',
    'https://example.org/cb?email=a@b.example',
  ])('accepts %j in every environment', (url) => {
    for (const env of ['local', 'development', 'production'] as const) expect(validateRedirectUrl(url, env), env).toBeUndefined();
  });

  it.each([
    'https://user:pass@evil.com/capture',
    'https://google.com@evil.com/capture',
    'https://user:@evil.com/capture',
    'myapp://user@callback',
  ])('refuses credentials in %j: invalid_redirect_url_format, in every environment', (url) => {
    for (const env of ['local', 'development', 'production'] as const) {
      expect(validateRedirectUrl(url, env), env).toEqual({ code: 'invalid_redirect_url_format', message: 'Credentials are not allowed in the URL.' });
    }
  });

  it.each(['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'javascript://example.org/%0Aalert(1)', 'example.org/callback', 'http://'])(
    'refuses %j: invalid_redirect_url_format',
    (url) => {
      expect(validateRedirectUrl(url, 'local')).toEqual({ code: 'invalid_redirect_url_format', message: 'Invalid URL format.' });
    },
  );

  it('accepts plain http only on a local environment, loopback addresses included', () => {
    for (const url of ['http://example.org', 'http://127.0.0.1:3000/cb', 'http://[::1]:8080/cb', 'http://localhost/cb']) {
      expect(validateRedirectUrl(url, 'local'), url).toBeUndefined();
      for (const env of ['development', 'production'] as const) {
        expect(validateRedirectUrl(url, env), `${url} on ${env}`).toEqual({
          code: 'invalid_redirect_scheme',
          message: 'The URL must be served over a secure connection.',
        });
      }
    }
  });

  it('refuses an upper-case HTTP scheme outside local too (the original lets it through)', () => {
    expect(validateRedirectUrl('HTTP://example.org/cb', 'production')?.code).toBe('invalid_redirect_scheme');
  });
});

describe('addQueryArgs', () => {
  it('adds URL-encoded args before the fragment, replacing same-named ones', () => {
    expect(addQueryArgs('myapp://cb?success=1&x=y#f', { success: 'false', site_url: 'https://s.example/a b' })).toBe(
      'myapp://cb?x=y&success=false&site_url=https%3A%2F%2Fs.example%2Fa%20b#f',
    );
  });
});
