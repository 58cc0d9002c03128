import { pollUntil } from '@infergate/emulator/testing/redis';
import { expect, it } from 'vitest';
import { redisForFile, request } from './budgets';

// `state(id)`: this process's calls of an id, read without a round trip: those holding a slot
// (`active`) and those waiting for one (`queued`), in this process or in Redis's line.
const file = redisForFile({ commandTimeoutMs: 60_000 });

it("counts the process's calls holding a slot, waiting for its own slot, and waiting in Redis's line", async () => {
  const id = `budget-state-${Math.random()}`;
  const mine = file.budget();
  const other = file.budget(); // another process on the same Redis
  expect(mine.state(id)).toEqual({ active: 0, queued: 0 });

  const four = await Promise.all(Array.from({ length: 4 }, () => mine.acquire(request(id))));
  expect(mine.state(id)).toEqual({ active: 4, queued: 0 });
  const fifth = mine.acquire(request(id)); // waits for one of this process's own 4 slots
  expect(mine.state(id)).toEqual({ active: 4, queued: 1 });

  // The other process's call waits in Redis's line: queued there, active nowhere.
  const theirs = other.acquire(request(id));
  await pollUntil(() => other.state(id).queued === 1, "the other's call in Redis's line");
  expect(other.state(id)).toEqual({ active: 0, queued: 1 });

  // A slot freed: one of the two waiting calls is granted, the other still waits (ours, having
  // taken our own slot, in Redis's line).
  four[0]?.release();
  const next = await Promise.race([fifth.then(() => 'ours'), theirs.then(() => 'theirs')]);
  const [granted, waiting] = next === 'ours' ? [fifth, theirs] : [theirs, fifth];
  expect([mine.state(id), other.state(id)]).toEqual(
    next === 'ours'
      ? [
          { active: 4, queued: 0 },
          { active: 0, queued: 1 },
        ]
      : [
          { active: 3, queued: 1 },
          { active: 1, queued: 0 },
        ],
  );
  (await granted).release();
  (await waiting).release();
  await pollUntil(() => other.state(id).active === 0, 'their call ended');
  expect(other.state(id)).toEqual({ active: 0, queued: 0 });
  expect(mine.state(id)).toEqual({ active: 3, queued: 0 });
  for (const lease of four.slice(1)) lease.release();
  expect(mine.state(id)).toEqual({ active: 0, queued: 0 });
  expect(mine.state('another-id')).toEqual({ active: 0, queued: 0 });
});
