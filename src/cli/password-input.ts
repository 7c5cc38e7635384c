/**
 * Reads an operator's password for the CLI: the whole of stdin with --password-stdin (one trailing
 * newline dropped), else a prompt on the terminal with echo off, asked twice. Never from argv, so it
 * stays out of shell history and process listings.
 */
export async function readPassword(fromStdin: boolean): Promise<string | null> {
  if (fromStdin) {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  if (!process.stdin.isTTY) return null;
  const first = await prompt('Password: ');
  const second = await prompt('Repeat password: ');
  if (first !== second) {
    process.stderr.write('The passwords differ.\n');
    return null;
  }
  return first;
}

function prompt(question: string): Promise<string> {
  return new Promise((resolve) => {
    process.stderr.write(question);
    const stdin = process.stdin;
    stdin.setRawMode(true);
    stdin.resume();
    let text = '';
    const onData = (buf: Buffer) => {
      for (const ch of buf.toString('utf8')) {
        if (ch === '\r' || ch === '\n') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stderr.write('\n');
          return resolve(text);
        }
        if (ch === '\u0003') process.exit(130);
        if (ch === '\u007f') text = text.slice(0, -1);
        else text += ch;
      }
    };
    stdin.on('data', onData);
  });
}
