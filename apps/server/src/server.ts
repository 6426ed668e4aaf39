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

// SIGTERM/SIGINT: stop accepting, let in-flight requests finish (up to 10 s), close the database.
closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'fatal error, shutting down');
  else app.log.info({ signal }, 'shutting down');
  await app.close();
});

await app.listen({ port: config.PORT, host: config.HOST });
