/** How a card's waiting thread lines are cut into thread messages (src/alerts/notifier.ts threadPosts). */
import { describe, expect, it } from "vitest";
import { THREAD_POST_CHARS, THREAD_POST_LINES, threadPosts } from "../../src/alerts/notifier.js";

const line = (id: number, text = `line ${id}`) => ({ id, text });

describe("thread messages of waiting lines", () => {
  it("sends lines that waited together in one message, in order, up to the line limit", () => {
    expect(threadPosts([])).toEqual([]);
    expect(threadPosts([line(1)])).toEqual([[line(1)]]);
    const many = Array.from({ length: THREAD_POST_LINES * 2 + 3 }, (_, i) => line(i + 1));
    const posts = threadPosts(many);
    expect(posts.map((p) => p.length)).toEqual([THREAD_POST_LINES, THREAD_POST_LINES, 3]);
    expect(posts.flat()).toEqual(many);
  });

  it("keeps a message within the text limit, and sends a line longer than it alone", () => {
    const half = "x".repeat(THREAD_POST_CHARS / 2);
    const long = "y".repeat(THREAD_POST_CHARS + 10);
    const posts = threadPosts([line(1, half), line(2, half), line(3, long), line(4)]);
    expect(posts.map((p) => p.map((l) => l.id))).toEqual([[1], [2], [3], [4]]);
    for (const p of threadPosts([line(1, half.slice(1)), line(2, half.slice(1)), line(3)])) {
      expect(p.map((l) => l.text).join("\n").length).toBeLessThanOrEqual(THREAD_POST_CHARS);
    }
  });
});
