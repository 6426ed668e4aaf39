import { describe, expect, it } from 'vitest';
import { pushEndpointPolicy } from './push-endpoints.ts';

describe('push endpoints the server sends to', () => {
  it('are https on the browsers’ push services, and nothing else by default', () => {
    const policy = pushEndpointPolicy(undefined);
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://wns2-par02p.notify.windows.com/w/?token=abc',
      'https://web.push.apple.com/QGuQyavXutnMH',
    ]) {
      expect(policy.allows(endpoint), endpoint).toBe(true);
    }
    for (const endpoint of [
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://googleapis.com.evil.example/x',
      'https://evilgoogleapis.com/x',
      'https://user:pass@fcm.googleapis.com/x',
      'https://127.0.0.1/x',
      'https://[::1]/x',
      'https://10.0.0.8/x',
      'ftp://fcm.googleapis.com/x',
      'not a url',
    ]) {
      expect(policy.allows(endpoint), endpoint).toBe(false);
    }
  });

  it('add the hosts the operator lists, http or https, with the port when one is named', () => {
    const policy = pushEndpointPolicy(' push.example.org, 127.0.0.1:8080 ,*.push.example.net');
    expect(policy.allows('https://push.example.org/a')).toBe(true);
    expect(policy.allows('http://push.example.org/a')).toBe(true);
    expect(policy.allows('http://127.0.0.1:8080/a')).toBe(true);
    expect(policy.allows('http://127.0.0.1:8081/a')).toBe(false);
    expect(policy.allows('https://eu.push.example.net/a')).toBe(true);
    expect(policy.allows('https://push.example.net.evil/a')).toBe(false);
    expect(policy.allows('https://fcm.googleapis.com/fcm/send/x')).toBe(true);
  });
});
