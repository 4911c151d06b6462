import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-url.js';

describe('redactUrl', () => {
  it('hides credential parameters and keeps the rest', () => {
    expect(redactUrl('/wp-json/spamfilter/v1/alert?key=abcdefabcdef&x=1')).toBe('/wp-json/spamfilter/v1/alert?key=[redacted]&x=1');
    expect(redactUrl('/wp-json/eventsuite/tickets/v1/qr?api_key=k&ticket_id=5&security_code=s')).toBe('/wp-json/eventsuite/tickets/v1/qr?api_key=[redacted]&ticket_id=5&security_code=[redacted]');
    expect(redactUrl('/mailinglist/confirm?list=news&email=a%40b.c&sig=xyz')).toBe('/mailinglist/confirm?list=news&email=a%40b.c&sig=[redacted]');
    expect(redactUrl('/x?_wpnonce=n&edit_ticket_nonce=m&page=2')).toBe('/x?_wpnonce=[redacted]&edit_ticket_nonce=[redacted]&page=2');
    expect(redactUrl('/plain')).toBe('/plain');
  });
});
