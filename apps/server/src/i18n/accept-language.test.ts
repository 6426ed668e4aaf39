import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, DEMO_DISABLED_MESSAGE, DEMO_USER_ID, USERNAME_HINT } from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../test/build-app.ts';
import { authHeader, createUser } from '../../test/factories.ts';

/** Refusals answered through the whole app: Spanish for `es`, the spec's English for anything else. */
describe('4xx {message} by Accept-Language', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '100000', RATE_LIMIT_SIGNUP_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  const OTHERS: Record<string, string>[] = [
    {},
    { 'accept-language': 'en' },
    { 'accept-language': 'fr' },
    { 'accept-language': 'en-GB,es;q=0.5' },
  ];

  it('400 from a zod schema of the contracts', async () => {
    const send = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/signup',
        headers,
        payload: { username: '!', email: 'a@b.co', password: 'Whiskers123' },
      });
    const es = await send({ 'accept-language': 'es-ES,es;q=0.9' });
    expect(es.statusCode).toBe(400);
    expect(es.json()).toEqual({ message: 'Comprueba que has escrito un nombre de usuario válido.' });
    expect(es.headers.vary).toContain('Accept-Language');
    for (const headers of OTHERS) {
      const en = await send(headers);
      expect(en.json()).toEqual({ message: USERNAME_HINT });
      expect(en.headers.vary).toContain('Accept-Language');
    }
  });

  it('401 for a wrong password, and 429 once the account is locked', async () => {
    const user = await createUser(t.db);
    const login = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers,
        payload: { email: user.email, password: 'Wrong1234' },
      });
    const es = await login({ 'accept-language': 'es' });
    expect(es.statusCode).toBe(401);
    expect(es.json()).toEqual({ message: 'No autorizado' });
    const en = await login({ 'accept-language': 'fr' });
    expect(en.json()).toEqual({ message: AUTH_MESSAGES.unauthorized });
    let locked = await login({});
    for (let i = 0; i < 10 && locked.statusCode !== 429; i++) locked = await login({});
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ message: AUTH_MESSAGES.tooManyAttempts });
    const lockedEs = await login({ 'accept-language': 'es' });
    expect(lockedEs.statusCode).toBe(429);
    expect(lockedEs.json()).toEqual({
      message: 'Demasiados intentos de inicio de sesión; vuelve a intentarlo más tarde',
    });
    expect(lockedEs.headers['retry-after']).toBeDefined();
  });

  it('403 for the demo account, keeping its other headers', async () => {
    const demo = await authHeader(t.app, DEMO_USER_ID);
    const write = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/profile/settings/location-privacy',
        headers: { ...demo, ...headers },
        payload: { exactPublicLocation: false },
      });
    const es = await write({ 'accept-language': 'es' });
    expect(es.statusCode).toBe(403);
    expect(es.json()).toEqual({ message: 'Esta función no está disponible para la cuenta de demostración' });
    expect(es.headers['cache-control']).toBeDefined();
    for (const headers of OTHERS)
      expect((await write(headers)).json()).toEqual({ message: DEMO_DISABLED_MESSAGE });
  });

  it('404 for an unknown route and a missing user', async () => {
    const route = await t.app.inject({
      method: 'GET',
      url: '/api/nope',
      headers: { 'accept-language': 'es' },
    });
    expect(route.statusCode).toBe(404);
    expect(route.json()).toEqual({ message: 'No existe la ruta GET /api/nope' });
    const routeEn = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(routeEn.json()).toEqual({ message: 'Route GET /api/nope not found' });
    const me = await authHeader(t.app, (await createUser(t.db)).id);
    const url = '/api/profile/getUserProfile/00000000-0000-4000-8000-000000000000';
    const user = await t.app.inject({ method: 'GET', url, headers: { ...me, 'accept-language': 'es' } });
    expect(user.statusCode).toBe(404);
    expect(user.json()).toEqual({ message: 'No se ha encontrado el usuario' });
    expect((await t.app.inject({ method: 'GET', url, headers: me })).json()).toEqual({
      message: 'User not found',
    });
  });

  it('409 for an email already registered', async () => {
    const user = await createUser(t.db);
    const signup = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/signup',
        headers,
        payload: { username: `n${Date.now().toString(36)}`, email: user.email, password: 'Whiskers123' },
      });
    const es = await signup({ 'accept-language': 'es' });
    expect(es.statusCode).toBe(409);
    expect(es.json()).toEqual({ message: 'Ese correo electrónico ya está registrado' });
    for (const headers of OTHERS)
      expect((await signup(headers)).json()).toEqual({ message: AUTH_MESSAGES.emailTaken });
  });

  it('leaves answers that succeed alone', async () => {
    const me = await authHeader(t.app, (await createUser(t.db)).id);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/profile/getMyProfile',
      headers: { ...me, 'accept-language': 'es' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers.vary ?? '').not.toContain('Accept-Language');
  });
});
