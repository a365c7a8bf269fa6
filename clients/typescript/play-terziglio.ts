// A Terziglio game played to its end through the generated TypeScript types (openapi-typescript)
// and openapi-fetch, as docs/api.md shows it: a token, a new game followed live on its event
// stream, hands entered with an Idempotency-Key (one of them sent twice), a correction with
// If-Match, a removal with a reason, then the audit trail read page by page. `tsc --strict`
// checks it (.ci/clients); run against a server (under ASGI, for the stream) it prints the live
// event of the first hand, the final totals and the audit trail's pages.
//
//   node play-terziglio.js http://127.0.0.1:8000 demo-user password club-slug
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/schema.js";

type TerziglioHand = components["schemas"]["TerziglioPointsHandRequest"];
type Figures = components["schemas"]["GameFigures"];

// Seat 0 plays a solo every hand and makes `points` of the 11.
function hand(dealer: number, points: number): TerziglioHand {
  return {
    ruleset: "terziglio",
    dealer,
    outcome: "played",
    soloist: 0,
    contract: "solo",
    soloist_points: points,
  };
}

type LiveEvent = { id: string; name: string; data: Record<string, unknown> };

// Server-Sent Events as { id, name, data }: fields up to a blank line, comments skipped.
async function* events(body: ReadableStream<Uint8Array>): AsyncGenerator<LiveEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let id = "";
  let name = "message";
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
        const line = buffer.slice(0, end).replace(/\r$/, "");
        buffer = buffer.slice(end + 1);
        if (line === "") {
          if (data.length) yield { id, name, data: JSON.parse(data.join("\n")) };
          name = "message";
          data = [];
        } else if (!line.startsWith(":")) {
          const colon = line.includes(":") ? line.indexOf(":") : line.length;
          const field = line.slice(0, colon);
          const text = line.slice(colon + 1).replace(/^ /, "");
          if (field === "id") id = text;
          else if (field === "event") name = text;
          else if (field === "data") data.push(text);
        }
      }
    }
  } finally {
    await reader.cancel(); // closes the connection
  }
}

function ok<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) {
    throw new Error(`${answer.response.status}: ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

async function main(baseUrl: string, username: string, password: string, club: string) {
  const anonymous = createClient<paths>({ baseUrl });
  const { token } = ok(await anonymous.POST("/api/v1/auth/token/", { body: { username, password } }));
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Token ${token}` } });

  const started = await api.POST("/api/v1/clubs/{slug}/games/", {
    params: { path: { slug: club } },
    body: { ruleset: "terziglio", players: ["Anna", "Bruno", "Carla"], title: "Client test" },
  });
  const game = ok(started);
  console.log("game", game.id, "at", started.response.headers.get("Location"));

  // The game followed live: its event stream, opened with the token, says `hello` with the
  // version now, then `game` with each new version once stored.
  const opened = await api.GET("/api/v1/games/{game_id}/events/", {
    params: { path: { game_id: game.id } },
    parseAs: "stream",
  });
  if (!opened.data) throw new Error(`no stream: ${opened.response.status}`);
  const live = events(opened.data);
  const now = (await live.next()).value;
  if (now?.name !== "hello" || now.data.version !== game.version) throw new Error("no hello");

  // Hand 1, sent twice with one key: the second answer is the first one, replayed.
  const key = crypto.randomUUID();
  const enter = (document: TerziglioHand, idempotencyKey: string) =>
    api.POST("/api/v1/games/{game_id}/hands/", {
      params: { path: { game_id: game.id }, header: { "Idempotency-Key": idempotencyKey } },
      body: document,
    });
  const first = await enter(hand(0, 7), key);
  const again = await enter(hand(0, 7), key);
  if (ok(again).number !== ok(first).number) throw new Error("the replay made another hand");
  if (again.response.headers.get("Idempotent-Replayed") !== "true") throw new Error("no replay");

  const change = (await live.next()).value; // the hand, once: its replay stored nothing
  console.log("live", change?.name, change?.id, change?.data);
  if (change?.name !== "game" || change.data.change !== "hand") throw new Error("no live hand");
  if (change.data.version !== ok(first).game.version) throw new Error("not the new version");
  await live.return(undefined);

  // Hand 1 corrected, conditioned on the validator read: 8 points, not 7.
  const corrected = await api.PUT("/api/v1/games/{game_id}/hands/{number}/", {
    params: {
      path: { game_id: game.id, number: 1 },
      header: { "If-Match": first.response.headers.get("ETag") ?? "" },
    },
    body: { document: hand(0, 8), reason: "miscounted" },
  });
  if (ok(corrected).version !== 2) throw new Error("not corrected");

  // Hand 2 entered by mistake, then removed with a reason.
  const mistake = await enter(hand(1, 3), crypto.randomUUID());
  ok(mistake);
  const removed = await api.DELETE("/api/v1/games/{game_id}/hands/{number}/", {
    params: {
      path: { game_id: game.id, number: 2 },
      query: { reason: "entered twice" },
      header: { "If-Match": mistake.response.headers.get("ETag") ?? "" },
    },
  });
  let figures: Figures = ok(removed);

  // The rest of the game: seat 0 wins every hand until it reaches the target.
  while (figures.status === "in_progress") {
    const dealer = figures.next_dealer;
    if (dealer === null) throw new Error("no dealer");
    figures = ok(await enter(hand(dealer, 7), crypto.randomUUID())).game;
  }
  const final = ok(
    await api.GET("/api/v1/games/{game_id}/", { params: { path: { game_id: game.id } } }),
  );
  if (final.ranking === null || final.ranking[0].seat !== 0) throw new Error("wrong winner");
  console.log("finished after", final.hands.length, "hands; totals", final.totals);

  // The audit trail, page by page: every list of the API is paged the same way (docs/api.md),
  // `next` until it is null.
  const actions: string[] = [];
  let pages = 0;
  let cursor: string | undefined;
  for (;;) {
    const page = ok(
      await api.GET("/api/v1/games/{game_id}/audit/", {
        params: { path: { game_id: game.id }, query: { page_size: 2, cursor } },
      }),
    );
    actions.push(...page.results.map((row) => row.action));
    pages += 1;
    if (page.next === null) break;
    cursor = new URL(page.next).searchParams.get("cursor") ?? undefined;
  }
  const recorded = actions.filter((action) => action === "record_hand").length;
  if (actions[0] !== "start_game" || recorded !== final.hands.length + 1) {
    throw new Error(`audit trail: ${actions.join(", ")}`);
  }
  if (pages !== Math.ceil(actions.length / 2)) throw new Error(`${pages} pages`);
  console.log("audit trail:", actions.length, "events in", pages, "pages of 2");
}

// Node's own global, declared here rather than with @types/node.
declare const process: { argv: string[] };
const [baseUrl, username, password, club] = process.argv.slice(2);
await main(baseUrl, username, password, club);
