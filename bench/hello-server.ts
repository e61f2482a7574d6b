/** The load bench's reference: a hello-world Express server in its own process, on PORT. */
import express from 'express';

const app = express();
app.get('/', (_req, res) => {
  res.json({ success: true, hello: 'world' });
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('hello server ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
