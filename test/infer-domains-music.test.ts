import { describe, expect, it } from "vitest";
import {
  expectError,
  expectGrounded,
  expectOk,
  expectRecord,
  fieldsOf,
  useDomain,
} from "./support/domain-session.js";

/**
 * A music streaming account shaped as Spotify's Web API shapes it: playlists keyed by their
 * base-62 ids, each holding its tracks as an array of track ids in order; the tracks the user
 * saved and the playlists they follow as arrays of ids; the current user's profile; and one
 * player object with its shuffle, repeat mode, volume, current track and queue. Tool names as
 * the API reference titles its endpoints, in snake_case. Served without effects.
 *
 * A test marked `it.fails` states what a reader of the tools' docs expects and what the current
 * inference does not yet do: it keeps the suite green while it fails, and fails once the
 * behaviour is right, to have its `.fails` removed.
 */

const music = useDomain("music.json");

const NIGHT = "1aXq7TmPrwLbZsQ0dFkU2e";
const HARBOUR = "2bYr8UnQsxMcAtR1eGlV3f";
const COPPER = "3cZs9VoRtyNdBuS2fHmW4g";
const LANTERN = "4dAt0WpSuzOeCvT3gInX5h";
const SALTMARSH = "5eBu1XqTvAPfDwU4hJoY6i";
const PAPER = "6fCv2YrUwBQgExV5iKpZ7j";
const UNKNOWN_TRACK = "9zzzzzzzzzzzzzzzzzzzzz";

const RUN = "37i9dQZF1DX0aRunClub01";
const QUIET = "0kQuietSundayMorning02";
const ROAD = "5xRoadTripNorth2026x03";
const JAZZ = "1nEditorialLateJazz004";
const UNKNOWN_PLAYLIST = "0000000000000000000000";

const PLAYER = {
  device_name: "Kitchen speaker",
  is_playing: false,
  shuffle_state: false,
  repeat_state: "off",
  volume_percent: 40,
  current_track_id: COPPER,
  progress_ms: 61000,
  queue: [SALTMARSH, PAPER],
};

const tracksOf = async (playlistId: string) =>
  fieldsOf(await music.call("get_playlist", { playlist_id: playlistId })).tracks;
const ids = (value: unknown) => (Array.isArray(value) ? value.map((t: { id?: unknown }) => t.id) : value);
const saved = async () => ids(fieldsOf(await music.call("get_users_saved_tracks")).items);
const player = async () => fieldsOf(await music.call("get_playback_state"));

describe("music: the profile, playlists and the library as stored", () => {
  it("the current user's profile answers the stored fields, none guessed", async () => {
    const answer = await music.call("get_current_users_profile");
    expectRecord(answer, {
      id: "wren.okafor",
      display_name: "Wren Okafor",
      email: "wren@example.org",
      country: "GB",
      product: "premium",
      followers: 12,
      uri: "spotify:user:wren.okafor",
    });
    expectGrounded(answer, ["id", "display_name", "email", "country", "product", "followers", "uri"]);
  });

  it("a playlist answers its track ids in order; an unknown id answers the documented 404", async () => {
    const answer = await music.call("get_playlist", { playlist_id: RUN });
    expectRecord(answer, {
      id: RUN,
      name: "Run Club",
      owner_id: "wren.okafor",
      public: true,
      collaborative: false,
      followers: 3,
      tracks: [COPPER, PAPER, NIGHT, LANTERN],
      description: "Tempo for the long Sunday run",
    });
    expectGrounded(answer, ["id", "name", "owner_id", "tracks", "followers"]);
    expectError(await music.call("get_playlist", { playlist_id: UNKNOWN_PLAYLIST }), "NOT_FOUND");
  });

  it("the saved tracks answer the tracks their ids name, in the library's order", async () => {
    const answer = await music.call("get_users_saved_tracks");
    expect.soft(ids(fieldsOf(answer).items)).toEqual([NIGHT, COPPER]);
    expect.soft((fieldsOf(answer).items as Array<Record<string, unknown>>)[1]).toMatchObject({
      name: "Copper Sky",
      artists: ["Mira Vale", "Tamsin Oduya"],
      duration_ms: 243100,
    });
    expectGrounded(answer, ["items"]);
  });

  // Spotify's "current user's playlists" are the ones they follow (their own among them): the
  // list of followed ids named by no word of the tool's name. Not inferred yet: every playlist
  // of the world is answered, the editors' one the user never followed too.
  it.fails("the current user's playlists are the ones they follow, in the order they followed them", async () => {
    const answer = await music.call("get_current_users_playlists");
    expect(ids(fieldsOf(answer).items)).toEqual([RUN, QUIET, ROAD]);
  });
});

describe("music: the tracks of a playlist", () => {
  it("adding tracks appends their ids at the end, and a later read sees them", async () => {
    expectOk(await music.call("add_items_to_playlist", { playlist_id: QUIET, track_ids: [PAPER, NIGHT] }));
    expect.soft(await tracksOf(QUIET)).toEqual([SALTMARSH, HARBOUR, PAPER, NIGHT]);
    // the other playlists are untouched, and no playlist was made
    expect.soft(await tracksOf(RUN)).toEqual([COPPER, PAPER, NIGHT, LANTERN]);
  });

  it("adding at a position inserts there", async () => {
    expectOk(
      await music.call("add_items_to_playlist", { playlist_id: RUN, track_ids: [HARBOUR], position: 1 }),
    );
    expect.soft(await tracksOf(RUN)).toEqual([COPPER, HARBOUR, PAPER, NIGHT, LANTERN]);
  });

  it("adding to an unknown playlist, or an unknown track, answers 404 and changes nothing", async () => {
    expectError(
      await music.call("add_items_to_playlist", { playlist_id: UNKNOWN_PLAYLIST, track_ids: [PAPER] }),
      "NOT_FOUND",
    );
    expectError(
      await music.call("add_items_to_playlist", { playlist_id: QUIET, track_ids: [UNKNOWN_TRACK] }),
      "NOT_FOUND",
    );
    expect.soft(await tracksOf(QUIET)).toEqual([SALTMARSH, HARBOUR]);
    expectError(await music.call("get_playlist", { playlist_id: UNKNOWN_PLAYLIST }), "NOT_FOUND");
  });

  it("removing tracks takes every occurrence out and keeps the playlist", async () => {
    expectOk(await music.call("add_items_to_playlist", { playlist_id: QUIET, track_ids: [HARBOUR] }));
    expectOk(await music.call("remove_playlist_items", { playlist_id: QUIET, track_ids: [HARBOUR] }));
    expect.soft(await tracksOf(QUIET)).toEqual([SALTMARSH]);
    expect.soft(expectOk(await music.call("get_playlist", { playlist_id: QUIET }))).toMatchObject({
      name: "Quiet Sunday",
    });
    expectError(
      await music.call("remove_playlist_items", { playlist_id: UNKNOWN_PLAYLIST, track_ids: [PAPER] }),
      "NOT_FOUND",
    );
  });

  // who may change a playlist (its owner, or anyone where it is collaborative) is a rule of
  // two fields and the signed-in user the inference does not read yet: the editors' playlist
  // takes the addition
  it.fails("a playlist someone else owns, not collaborative, cannot be changed", async () => {
    expectError(
      await music.call("add_items_to_playlist", { playlist_id: JAZZ, track_ids: [PAPER] }),
      "FORBIDDEN",
    );
    expect.soft(await tracksOf(JAZZ)).toEqual([LANTERN, SALTMARSH]);
    // a collaborative playlist takes anyone's additions
    expectOk(await music.call("add_items_to_playlist", { playlist_id: ROAD, track_ids: [COPPER] }));
    expect.soft(await tracksOf(ROAD)).toEqual([NIGHT, HARBOUR, PAPER, COPPER]);
  });

  // reordering moves the item at range_start before the item at insert_before: an operation on
  // an array's positions the inference has no rule for yet
  it.fails("reordering moves the track at range_start before the one at insert_before", async () => {
    expectOk(
      await music.call("reorder_playlist_items", { playlist_id: RUN, range_start: 3, insert_before: 0 }),
    );
    expect(await tracksOf(RUN)).toEqual([LANTERN, COPPER, PAPER, NIGHT]);
  });
});

describe("music: following playlists and saving tracks", () => {
  it("following a playlist counts one more follower; repeating it changes nothing; unfollowing counts one less", async () => {
    expectOk(await music.call("follow_playlist", { playlist_id: JAZZ }));
    expect.soft(fieldsOf(await music.call("get_playlist", { playlist_id: JAZZ })).followers).toBe(48211);
    expectOk(await music.call("follow_playlist", { playlist_id: JAZZ }));
    expect.soft(fieldsOf(await music.call("get_playlist", { playlist_id: JAZZ })).followers).toBe(48211);
    expectOk(await music.call("unfollow_playlist", { playlist_id: ROAD }));
    expect.soft(fieldsOf(await music.call("get_playlist", { playlist_id: ROAD })).followers).toBe(8);
    // unfollowing what is not followed is documented as a no-op
    expectOk(await music.call("unfollow_playlist", { playlist_id: ROAD }));
    expect.soft(fieldsOf(await music.call("get_playlist", { playlist_id: ROAD })).followers).toBe(8);
    expectError(await music.call("follow_playlist", { playlist_id: UNKNOWN_PLAYLIST }), "NOT_FOUND");
  });

  it("saving tracks adds each id to the library once; removing takes them out", async () => {
    expectOk(await music.call("save_tracks_for_current_user", { ids: [PAPER, NIGHT, HARBOUR] }));
    expect.soft(await saved()).toEqual([NIGHT, COPPER, PAPER, HARBOUR]);
    expectOk(await music.call("remove_users_saved_tracks", { ids: [NIGHT, LANTERN] }));
    expect.soft(await saved()).toEqual([COPPER, PAPER, HARBOUR]);
  });

  it("saving an unknown track answers 404 and saves none of the others", async () => {
    expectError(
      await music.call("save_tracks_for_current_user", { ids: [PAPER, UNKNOWN_TRACK] }),
      "NOT_FOUND",
    );
    expect.soft(await saved()).toEqual([NIGHT, COPPER]);
  });
});

describe("music: the player", () => {
  it("the playback state answers the player as stored, none guessed", async () => {
    const answer = await music.call("get_playback_state");
    expectRecord(answer, PLAYER);
    expectGrounded(answer, Object.keys(PLAYER));
  });

  it("shuffle, repeat and volume set the player's fields to the values given", async () => {
    const shuffled = await music.call("toggle_playback_shuffle", { state: true });
    expect.soft(expectOk(shuffled)).toMatchObject({ shuffle_state: true });
    // the state is given, not flipped: asking twice leaves shuffle on
    expectOk(await music.call("toggle_playback_shuffle", { state: true }));
    expect.soft((await player()).shuffle_state).toBe(true);
    expectOk(await music.call("toggle_playback_shuffle", { state: false }));
    expect.soft((await player()).shuffle_state).toBe(false);
    expect
      .soft(expectOk(await music.call("set_repeat_mode", { state: "context" })))
      .toMatchObject({ repeat_state: "context" });
    expect
      .soft(expectOk(await music.call("set_playback_volume", { volume_percent: 75 })))
      .toMatchObject({ volume_percent: 75 });
    expect
      .soft(await player())
      .toMatchObject({ repeat_state: "context", volume_percent: 75, shuffle_state: false });
  });

  it("starting playback plays; with a track id that track; pausing stops; an unknown track answers 404", async () => {
    expect.soft(expectOk(await music.call("start_resume_playback"))).toMatchObject({
      is_playing: true,
      current_track_id: COPPER,
    });
    expect.soft(expectOk(await music.call("pause_playback"))).toMatchObject({ is_playing: false });
    expect.soft((await player()).is_playing).toBe(false);
    expect.soft(expectOk(await music.call("start_resume_playback", { track_id: LANTERN }))).toMatchObject({
      is_playing: true,
      current_track_id: LANTERN,
    });
    expect.soft(await player()).toMatchObject({ is_playing: true, current_track_id: LANTERN });
    expectError(await music.call("start_resume_playback", { track_id: UNKNOWN_TRACK }), "NOT_FOUND");
    expect.soft((await player()).current_track_id).toBe(LANTERN);
  });

  // skipping takes the first track of the queue into the current track: a shift from one field to
  // another the inference has no rule for yet
  it.fails("skipping to the next track plays the first of the queue and takes it out of the queue", async () => {
    expect(expectOk(await music.call("skip_to_next"))).toMatchObject({
      current_track_id: SALTMARSH,
      queue: [PAPER],
    });
    expect(await player()).toMatchObject({ current_track_id: SALTMARSH, queue: [PAPER] });
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(music.breaches).toEqual([]);
  });
});
