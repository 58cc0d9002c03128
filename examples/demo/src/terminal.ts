// Plain-ANSI output for the tour: colours and in-place progress only on a terminal.

const useColour = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const interactive = Boolean(process.stdout.isTTY);

function paint(code: string): (text: string) => string {
  return (text) => (useColour ? `\x1b[${code}m${text}\x1b[0m` : text);
}

export const style = {
  bold: paint('1'),
  dim: paint('2'),
  red: paint('31'),
  green: paint('32'),
  yellow: paint('33'),
  cyan: paint('36'),
};

const INDENT = '   ';

export function heading(index: number, total: number, title: string, what: string): void {
  console.log(`\n${style.bold(style.cyan(`[${index}/${total}] ${title}`))}`);
  console.log(style.dim(`${INDENT}${what}`));
}

/** A line of the step's output, indented under its heading. */
export function line(text = ''): void {
  console.log(text ? `${INDENT}${text.replaceAll('\n', `\n${INDENT}`)}` : '');
}

export function ok(text: string): void {
  console.log(`${INDENT}${style.green('✔')} ${text}`);
}

export function skipped(text: string): void {
  console.log(`${INDENT}${style.yellow('↷ skipped:')} ${text}`);
}

export function failed(text: string): void {
  console.log(`${INDENT}${style.red('✘')} ${text}`);
}

/**
 * Writes streamed text as it arrives, indented, and counts it; `end()` closes the line and
 * prints how much arrived and how fast.
 */
export function streamPrinter(label: string): {
  write(delta: string): void;
  note(text: string): void;
  end(): { chunks: number; characters: number };
} {
  const started = performance.now();
  let chunks = 0;
  let characters = 0;
  let atLineStart = true;
  process.stdout.write(`${INDENT}${style.dim(`${label} `)}`);
  atLineStart = false;
  const write = (text: string) => {
    for (const part of text.split(/(\n)/)) {
      if (part === '\n') {
        process.stdout.write('\n');
        atLineStart = true;
      } else if (part) {
        process.stdout.write(atLineStart ? `${INDENT}${part}` : part);
        atLineStart = false;
      }
    }
  };
  return {
    write(delta) {
      chunks++;
      characters += delta.length;
      write(delta);
    },
    note(text) {
      if (!atLineStart) process.stdout.write('\n');
      console.log(`${INDENT}${style.dim(text)}`);
      atLineStart = true;
    },
    end() {
      if (!atLineStart) process.stdout.write('\n');
      const ms = Math.round(performance.now() - started);
      console.log(
        `${INDENT}${style.dim(`(${chunks} chunks, ${characters} characters, ${ms} ms)`)}`,
      );
      return { chunks, characters };
    },
  };
}

/** A progress bar redrawn in place on a terminal; elsewhere only the final state is printed. */
export function progressBar(total: number): {
  update(done: number, detail: string): void;
  end(detail: string): void;
} {
  const width = 20;
  const render = (done: number, detail: string) => {
    const filled = Math.round((done / total) * width);
    return `${INDENT}[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${detail}`;
  };
  return {
    update(done, detail) {
      if (interactive) process.stdout.write(`\r\x1b[2K${render(done, detail)}`);
    },
    end(detail) {
      if (interactive) process.stdout.write('\r\x1b[2K');
      console.log(render(total, detail));
    },
  };
}
