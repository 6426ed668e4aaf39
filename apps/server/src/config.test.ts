import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('config', () => {
  it('has working defaults for zero-setup start', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe('./data');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.NODE_ENV).toBe('development');
  });

  it('names the variable and what it expects on a bad value', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT="abc": expected a port number/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL="mysql:\/\/x": expected a postgres/,
    );
    expect(() => loadConfig({ SEED: 'maybe' })).toThrow(/SEED="maybe": expected sample, demo or none/);
  });

  it('seeds the sample neighbourhood by default outside production, the demo account only in production', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) };
    expect(loadConfig({}).SEED).toBe('sample');
    expect(loadConfig({ NODE_ENV: 'test' }).SEED).toBe('sample');
    expect(loadConfig(production).SEED).toBe('demo');
    expect(loadConfig({ ...production, SEED: '' }).SEED).toBe('demo');
    // true is the old boolean's "seed": this environment's default, never the sample accounts in production.
    expect(loadConfig({ SEED: 'true' }).SEED).toBe('sample');
    expect(loadConfig({ ...production, SEED: 'true' }).SEED).toBe('demo');
    expect(loadConfig({ ...production, SEED: 'sample' }).SEED).toBe('sample');
    expect(loadConfig({ SEED: 'demo' }).SEED).toBe('demo');
    for (const none of ['none', 'false', '0', 'no']) expect(loadConfig({ SEED: none }).SEED).toBe('none');
  });

  it('serves the API explorer outside production, and in production only when asked', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) };
    expect(loadConfig({}).API_DOCS).toBe(true);
    expect(loadConfig({ API_DOCS: 'false' }).API_DOCS).toBe(false);
    expect(loadConfig(production).API_DOCS).toBe(false);
    expect(loadConfig({ ...production, API_DOCS: 'true' }).API_DOCS).toBe(true);
    expect(() => loadConfig({ API_DOCS: 'on' })).toThrow(/API_DOCS="on": expected true or false/);
  });

  it('refuses to start in production without a JWT secret', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET="": required in production/);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) }).JWT_SECRET).toHaveLength(32);
  });

  it('takes a VAPID key pair only whole and matching, with a subject push services can reach', () => {
    const publicKey =
      'BIEY78IO3y0AAl567a8GYCivi7KLJBxwO6UfupYIuGXCjpDwPoxdTBeUENGx59n7mCM_1XvG7vXXvQSWhSqkqWQ';
    const privateKey = 'YedmDWsKNEKC8ACFLBEwcTJFH5eH1A6NpqCJkydGHcc';
    const config = loadConfig({ VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey });
    expect(config.VAPID_PUBLIC_KEY).toBe(publicKey);
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: publicKey })).toThrow(
      /VAPID_PRIVATE_KEY="": expected both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither/,
    );
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'abc', VAPID_PRIVATE_KEY: privateKey })).toThrow(
      /VAPID_PUBLIC_KEY="abc": expected a P-256 public key/,
    );
    const otherPrivate = 'Q7dTMU0W0QdBBWmMV3eUYNYhpeHW0ZVXyYA3fTDLfNk';
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: otherPrivate })).toThrow(
      /expected the public key of VAPID_PRIVATE_KEY/,
    );
    expect(loadConfig({ VAPID_SUBJECT: 'mailto:cats@example.org' }).VAPID_SUBJECT).toBe(
      'mailto:cats@example.org',
    );
    expect(() => loadConfig({ VAPID_SUBJECT: 'http://cats.example' })).toThrow(
      /VAPID_SUBJECT="http:\/\/cats.example": expected a mailto: address or an https:\/\/ URL/,
    );
    expect(
      loadConfig({ PUSH_ENDPOINT_HOSTS: 'push.example.org, 127.0.0.1:8080,*.push.example' })
        .PUSH_ENDPOINT_HOSTS,
    ).toBeDefined();
    expect(() => loadConfig({ PUSH_ENDPOINT_HOSTS: 'http://push.example.org' })).toThrow(
      /PUSH_ENDPOINT_HOSTS="http:\/\/push.example.org": expected host names/,
    );
  });

  it('keeps metrics off by default and takes a token, a port and a drain time with clear messages', () => {
    const defaults = loadConfig({});
    expect(defaults.METRICS_TOKEN).toBeUndefined();
    expect(defaults.METRICS_PORT).toBeUndefined();
    expect(defaults.SHUTDOWN_DRAIN_SECONDS).toBe(0);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) }).SHUTDOWN_DRAIN_SECONDS).toBe(5);
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '12' }).SHUTDOWN_DRAIN_SECONDS).toBe(12);
    expect(loadConfig({ METRICS_TOKEN: '', METRICS_PORT: '' }).METRICS_TOKEN).toBeUndefined();
    const token = 'a'.repeat(32);
    expect(loadConfig({ METRICS_TOKEN: token, METRICS_PORT: '9464' })).toMatchObject({
      METRICS_TOKEN: token,
      METRICS_PORT: 9464,
    });
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN="short": expected at least 16 characters/,
    );
    expect(() => loadConfig({ METRICS_TOKEN: 'with a space in it, long enough' })).toThrow(
      /METRICS_TOKEN=.*expected printable ASCII without spaces/,
    );
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT="nine": expected a port number/);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(
      /METRICS_PORT="70000": expected a port number from 1 to 65535/,
    );
    expect(() => loadConfig({ METRICS_PORT: '3000' })).toThrow(
      /METRICS_PORT="3000": expected a port other than PORT/,
    );
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '-1' })).toThrow(
      /SHUTDOWN_DRAIN_SECONDS="-1": expected 0 to 300 seconds/,
    );
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: 'soon' })).toThrow(
      /SHUTDOWN_DRAIN_SECONDS="soon": expected a number of seconds/,
    );
  });

  it('sends mail through SMTP_URL from MAIL_FROM, and in production only with a PUBLIC_URL for the links', () => {
    const defaults = loadConfig({});
    expect(defaults.SMTP_URL).toBeUndefined();
    expect(defaults.MAIL_FROM).toBe('Neighbourhood Cats <no-reply@localhost>');
    const smtp = loadConfig({
      SMTP_URL: 'smtps://cats:secret@smtp.example.org:465',
      MAIL_FROM: 'Cats of Calle Luna <hello@cats.example>',
    });
    expect(smtp.SMTP_URL).toBe('smtps://cats:secret@smtp.example.org:465');
    expect(smtp.MAIL_FROM).toBe('Cats of Calle Luna <hello@cats.example>');
    expect(loadConfig({ MAIL_FROM: 'hello@cats.example' }).MAIL_FROM).toBe('hello@cats.example');
    expect(loadConfig({ SMTP_URL: '', MAIL_FROM: '' }).MAIL_FROM).toBe(
      'Neighbourhood Cats <no-reply@localhost>',
    );
    expect(() => loadConfig({ SMTP_URL: 'http://smtp.example.org' })).toThrow(
      /SMTP_URL="http:\/\/smtp.example.org": expected an smtp:\/\/ or smtps:\/\/ URL/,
    );
    expect(() => loadConfig({ MAIL_FROM: 'not an address' })).toThrow(
      /MAIL_FROM="not an address": expected an address such as/,
    );
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) };
    expect(() => loadConfig({ ...production, SMTP_URL: 'smtp://smtp.example.org' })).toThrow(
      /PUBLIC_URL="": required in production when SMTP_URL is set: links in mails are built from it/,
    );
    expect(
      loadConfig({ ...production, SMTP_URL: 'smtp://smtp.example.org', PUBLIC_URL: 'https://cats.example' })
        .PUBLIC_URL,
    ).toBe('https://cats.example');
    // The outbox needs no public origin: its links are logged for the operator on this machine.
    expect(loadConfig(production).SMTP_URL).toBeUndefined();
  });
});
