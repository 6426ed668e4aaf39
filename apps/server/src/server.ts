import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config.ts';
import { bootstrap } from './bootstrap.ts';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

const app = await bootstrap(config);

const drainMs = config.SHUTDOWN_DRAIN_SECONDS * 1000;

// SIGTERM (a supervisor's or orchestrator's stop): first drain for SHUTDOWN_DRAIN_SECONDS, readiness
// answering 503 while every request is still served, so that a load balancer stops sending traffic
// here; then stop accepting, let in-flight requests finish (up to 10 s; open notification streams are
// ended by their plugin) and close the database. SIGINT (Ctrl+C) and a fatal error skip the drain.
// A second signal exits at once.
closeWithGrace({ delay: drainMs + 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'fatal error, shutting down');
  else if (signal === 'SIGTERM' && drainMs > 0) {
    app.readiness.startDraining();
    app.log.info({ signal, drainSeconds: config.SHUTDOWN_DRAIN_SECONDS }, 'draining before shutting down');
    await new Promise((resolve) => setTimeout(resolve, drainMs));
    app.log.info('drained, shutting down');
  } else app.log.info({ signal }, 'shutting down');
  await app.close();
});

await app.listen({ port: config.PORT, host: config.HOST });
