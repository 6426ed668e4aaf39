import Fastify from 'fastify';
import multipart from '@fastify/multipart';
import { describe, expect, it } from 'vitest';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorHandlerPlugin } from './error-handler.ts';
import { conflict } from '../lib/http-errors.ts';

async function appWithRoutes() {
  const logged: unknown[] = [];
  const app = Fastify({ bodyLimit: 100 }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorHandlerPlugin);
  await app.register(multipart);
  app.addHook('onError', async (_req, _reply, err) => {
    logged.push(err);
  });
  app.get('/boom', async () => {
    throw new Error('secret database password in stack');
  });
  app.get('/taken', async () => {
    throw conflict('That email is already registered');
  });
  app.post(
    '/typed',
    { schema: { body: z.object({ name: z.string().min(2, 'Name is too short') }) } },
    async () => ({ ok: true }),
  );
  await app.ready();
  return { app, logged };
}

describe('error handler', () => {
  it('answers 500 {message} without internals and keeps the error for the log', async () => {
    const { app, logged } = await appWithRoutes();
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Internal Server Error' });
    expect(res.body).not.toContain('secret');
    expect(logged).toHaveLength(1);
  });

  it('passes HttpError status and message through', async () => {
    const { app } = await appWithRoutes();
    const res = await app.inject({ method: 'GET', url: '/taken' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'That email is already registered' });
  });

  it('answers schema violations 400 with the rule message', async () => {
    const { app } = await appWithRoutes();
    const res = await app.inject({ method: 'POST', url: '/typed', payload: { name: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Name is too short' });
  });

  it('answers malformed JSON 400 and a too-large body 413', async () => {
    const { app } = await appWithRoutes();
    const bad = await app.inject({
      method: 'POST',
      url: '/typed',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'Malformed JSON in request body' });
    const big = await app.inject({ method: 'POST', url: '/typed', payload: { name: 'x'.repeat(500) } });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ message: 'Request body is too large' });
  });
});
