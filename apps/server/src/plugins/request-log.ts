import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request, written when it is answered, with what Fastify's 'incoming request' and
 * 'request completed' lines held between them (the request, its status, its time): half the writes to
 * the log. bench/support/server-log.ts reads these lines. Fastify's other per-request lines (its
 * default error handler's, which ours replaces, and a premature stream end) stay off, as they were
 * with the `disableRequestLogging` option this replaces (deprecated in Fastify 5.12).
 *
 * A request whose response failed on its way out (Fastify passes an error: the client went away, a
 * stream broke) is logged at error level as 'request errored', with the error, as Fastify's own
 * controller logs it (fastify/lib/log-controller.js); every other request at info level.
 */
export class OneLinePerRequest extends LogController {
  override isLogDisabled(): boolean {
    return true;
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) request.log.error({ ...line, err: error }, 'request errored');
    else request.log.info(line, 'request completed');
  }
}
