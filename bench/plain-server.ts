// Bench child: a plain `node:http` server with no relay and no world behind it. It answers a GET, or a POST once its
// body is read and parsed, with the same JSON the size of a `rolls` answer: what a client's own work adds to each.
import { createServer } from 'node:http';

const ANSWER = JSON.stringify({ type: 'rolls-result', data: 'x'.repeat(860) });

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (chunks.length > 0) JSON.parse(Buffer.concat(chunks).toString('utf8'));
    response.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The plain server has no port');
  process.send!({ url: `http://127.0.0.1:${address.port}` });
});
process.on('disconnect', () => process.exit(0));
