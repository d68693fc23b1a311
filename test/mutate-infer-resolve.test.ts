import { describe, expect, it } from "vitest";
import { call, error, failure, type State, text, tool, world } from "./support/infer-world.js";

/**
 * What a tool's arguments and name point at (docs/inference.md): a collection by the noun of
 * an id, by the field its records keep their key in, by a natural key, by the key its
 * description names or the examples it gives; the part a name names, container words aside;
 * the list a membership verb keeps; the collection an action files its record in.
 */

type Rows = Array<Record<string, unknown>>;

/** A veterinary clinic: pets with tag-like ids, owners, vets known by their login. */
const clinicState = (): State => ({
  pets: [
    { pet_id: "P-1001", name: "Rex", keeper: "o1" },
    { pet_id: "P-1002", name: "Mia", keeper: "o1" },
    { pet_id: "P-1003", name: "Bo", keeper: "o2" },
  ],
  owners: [
    { owner_id: "o1", name: "Kari" },
    { owner_id: "o2", name: "Per" },
  ],
  vets: [
    { login: "drlund", name: "Dr Lund", room: 1 },
    { login: "drholm", name: "Dr Holm", room: 2 },
  ],
});

const clinic = (...tools: unknown[]) => world(clinicState(), tools);
const pets = (state: State) => state.pets as Rows;

describe("an argument that names a record", () => {
  it("finds a pet by its id, and by a bare id where the name names pets", async () => {
    const byId = await call(clinic(tool("get_pet", "Get a pet.", { pet_id: text })), "get_pet", {
      pet_id: "P-1002",
    });
    expect(byId.answer).toEqual({ pet_id: "P-1002", name: "Mia", keeper: "o1" });
    const bare = clinic(tool("get_pet", "Get a pet.", { id: text }));
    expect((await call(bare, "get_pet", { id: "P-1003" })).answer).toMatchObject({ name: "Bo" });
    expect(failure((await call(bare, "get_pet", { id: "P-9" })).outcome)).toBe("PET_NOT_FOUND");
  });

  it("finds a vet by the login the argument gives, where the vet's records have no id", async () => {
    const { answer, report } = await call(clinic(tool("get_vet", "Get a vet.", { vet: text })), "get_vet", {
      vet: "drholm",
    });
    expect(answer).toEqual({ login: "drholm", name: "Dr Holm", room: 2 });
    expect(report.notes).toContain("reads vets/[login=…] by vet");
  });

  it("finds a pet by an argument whose examples look like pets' ids", async () => {
    const byTag = clinic(
      tool("get_pet_by_tag", "Get a pet by the tag on its collar.", {
        tag_code: { type: "string", description: "The collar tag, for example 'P-2000'." },
      }),
    );
    const { answer } = await call(byTag, "get_pet_by_tag", { tag_code: "P-1001" });
    expect(answer).toMatchObject({ name: "Rex" });
    // examples of another outline name no pets
    const other = clinic(
      tool("get_pet_by_tag", "Get a pet by the tag on its collar.", {
        tag_code: { type: "string", description: "The collar tag, for example 'TAG-20'." },
      }),
    );
    const none = await call(other, "get_pet_by_tag", { tag_code: "P-1001" });
    expect(none.answer).not.toEqual(pets(clinicState())[0]);
  });

  it("checks a new keeper against the owners the argument's description names", async () => {
    const transfer = clinic(
      tool(
        "transfer_pet",
        "Transfer a pet to a new keeper.",
        {
          pet_id: text,
          new_keeper_id: { type: "string", description: "The owner_id of the new keeper." },
        },
        undefined,
        [error("OWNER_NOT_FOUND", "Owner not found.", "No owner has the given id.", 404)],
      ),
    );
    const moved = await call(transfer, "transfer_pet", { pet_id: "P-1001", new_keeper_id: "o2" });
    expect(moved.outcome.status).toBe("applied");
    const refused = await call(transfer, "transfer_pet", { pet_id: "P-1001", new_keeper_id: "o9" });
    expect(failure(refused.outcome)).toBe("OWNER_NOT_FOUND");
    expect(refused.after).toEqual(clinicState());
  });

  it("finds records whose collection's name ends with the id's noun, or keeps them under an index", async () => {
    const bakery = world(
      {
        customer_orders: [
          { order_id: "c1", loaf: "rye" },
          { order_id: "c2", loaf: "spelt" },
        ],
        guest_index: { g1: { name: "Ann" }, g2: { name: "Ben" } },
      },
      [
        tool("get_order", "Get an order.", { order_id: text }),
        tool("get_guest", "Get a guest.", { guest_id: text }),
        tool("list_guests", "Every guest."),
      ],
    );
    expect((await call(bakery, "get_order", { order_id: "c2" })).answer).toEqual({
      order_id: "c2",
      loaf: "spelt",
    });
    expect((await call(bakery, "get_guest", { guest_id: "g2" })).answer).toEqual({ name: "Ben" });
    expect((await call(bakery, "list_guests", {})).answer).toEqual([{ name: "Ann" }, { name: "Ben" }]);
  });

  it("where two collections keep their key in one field, takes the one the tool names", async () => {
    const shelter = world(
      {
        dogs: [
          { code: "d1", name: "Fido" },
          { code: "d2", name: "Luna" },
        ],
        cats: [
          { code: "k1", name: "Tom" },
          { code: "k2", name: "Zoe" },
        ],
      },
      [tool("get_cat", "Get a cat.", { code: text }), tool("get_dog", "Get a dog.", { code: text })],
    );
    expect((await call(shelter, "get_cat", { code: "k2" })).answer).toEqual({ code: "k2", name: "Zoe" });
    expect((await call(shelter, "get_dog", { code: "d1" })).answer).toEqual({ code: "d1", name: "Fido" });
  });

  it("names a record only by a text or a number: a flag or an object of the id's name filters", async () => {
    for (const type of ["boolean", "object"]) {
      const odd = clinic(tool("get_pet", "Get a pet.", { pet_id: { type } }));
      const { answer, report } = await call(odd, "get_pet", { pet_id: "P-1002" });
      expect(report.notes, type).toEqual(["lists pets where pet_id"]);
      expect(answer, type).toEqual([{ pet_id: "P-1002", name: "Mia", keeper: "o1" }]);
    }
    for (const type of ["integer", "number", "string"]) {
      const plain = clinic(tool("get_pet", "Get a pet.", { pet_id: { type } }));
      const { answer } = await call(plain, "get_pet", { pet_id: "P-1002" });
      expect(answer, type).toEqual({ pet_id: "P-1002", name: "Mia", keeper: "o1" });
    }
    const byName = await call(clinic(tool("find_pets", "Pets by name.", { name: text })), "find_pets", {
      name: "Mia",
    });
    expect(byName.answer).toEqual([{ pet_id: "P-1002", name: "Mia", keeper: "o1" }]);
  });
});

describe("the part a tool's name names", () => {
  const music = world(
    {
      play_list: ["s1"],
      songs: [
        { song_id: "s1", title: "Rain", artist: "Ola" },
        { song_id: "s2", title: "Sun", artist: "Ida" },
      ],
      artists: [{ artist_id: "Ida", country: "NO" }],
      profile_info: { bio: "Plays the fiddle", city: "Bergen" },
    },
    [
      tool("get_playlist", "The playlist."),
      tool("add_song_to_playlist", "Add a song to the playlist.", { song_id: text }),
      tool("remove_song_from_playlist", "Remove a song from the playlist.", { song_id: text }),
      tool("get_profile_info", "The profile."),
      tool("get_songs_by_artist", "Songs by an artist.", { artist: text }),
      tool("get_my_profile", "The profile."),
    ],
  );

  it("reads a list whatever container word its name has", async () => {
    expect((await call(music, "get_playlist", {})).answer).toEqual({ play_list: ["s1"] });
    expect((await call(music, "get_profile_info", {})).answer).toEqual({
      bio: "Plays the fiddle",
      city: "Bergen",
    });
    expect((await call(music, "get_my_profile", {})).answer).toEqual({
      bio: "Plays the fiddle",
      city: "Bergen",
    });
  });

  it("takes the head noun, the last, over the one it acts on", async () => {
    const added = await call(music, "add_song_to_playlist", { song_id: "s2" });
    expect(added.after.play_list).toEqual(["s1", "s2"]);
    const removed = await call(music, "remove_song_from_playlist", { song_id: "s1" });
    expect(removed.after.play_list).toEqual([]);
    expect(removed.after.songs).toEqual(music.state.songs);
  });

  it("stops at `by`: what follows selects", async () => {
    const { answer } = await call(music, "get_songs_by_artist", { artist: "Ida" });
    expect(answer).toEqual([{ song_id: "s2", title: "Sun", artist: "Ida" }]);
  });
});

describe("the list a membership verb keeps", () => {
  const me = () => ({
    user_id: "u1",
    following: ["u2"],
    liked_post_ids: ["p2"],
    starred: [] as string[],
    saved_drafts: [] as string[],
  });
  const social = world(
    {
      posts: [
        { post_id: "p1", text: "Hello", like_count: 0 },
        { post_id: "p2", text: "Again", like_count: 1 },
      ],
      me: me(),
      users: [{ user_id: "u1" }, { user_id: "u2" }, { user_id: "u3" }],
    },
    [
      tool("follow_user", "Follow a user.", { user_id: text }),
      tool("unfollow_user", "Unfollow a user.", { user_id: text }),
      tool("like_post", "Like a post.", { post_id: text }),
      tool("unlike_post", "Unlike a post.", { post_id: text }),
      tool("star_post", "Star a post.", { post_id: text }),
    ],
  );

  it("follows into `following`, likes into `liked_post_ids`, stars into `starred`", async () => {
    const followed = await call(social, "follow_user", { user_id: "u3" });
    expect(followed.after.me).toEqual({ ...me(), following: ["u2", "u3"] });
    const unfollowed = await call(social, "unfollow_user", { user_id: "u2" });
    expect(unfollowed.after.me).toEqual({ ...me(), following: [] });
    const liked = await call(social, "like_post", { post_id: "p1" });
    expect(liked.after.me).toEqual({ ...me(), liked_post_ids: ["p2", "p1"] });
    const unliked = await call(social, "unlike_post", { post_id: "p2" });
    expect(unliked.after.me).toEqual({ ...me(), liked_post_ids: [] });
    const starred = await call(social, "star_post", { post_id: "p1" });
    expect(starred.after.me).toEqual({ ...me(), starred: ["p1"] });
  });
});

describe("the collection an action files its record in", () => {
  it("books into bookings and reserves into reservations, not into what is booked", async () => {
    const inn = world(
      {
        rooms: [
          { room_id: "r1", beds: 2 },
          { room_id: "r2", beds: 1 },
        ],
        bookings: [{ booking_id: "b1", room_id: "r1", night: "2026-03-01" }],
        tables: [{ table_id: "t1", seats: 4 }],
        reservation_list: [{ reservation_id: "v1", table_id: "t1", time: "19:00" }],
      },
      [
        tool("book_room", "Book a room for a night.", { room_id: text, night: text }),
        tool("reserve_table", "Reserve a table.", { table_id: text, time: text }),
      ],
    );
    const booked = await call(inn, "book_room", { room_id: "r2", night: "2026-03-04" });
    expect(booked.after.rooms).toEqual(inn.state.rooms);
    expect(booked.after.bookings).toEqual([
      { booking_id: "b1", room_id: "r1", night: "2026-03-01" },
      { booking_id: "b2", room_id: "r2", night: "2026-03-04" },
    ]);
    const reserved = await call(inn, "reserve_table", { table_id: "t1", time: "20:00" });
    expect(reserved.after.reservation_list).toEqual([
      { reservation_id: "v1", table_id: "t1", time: "19:00" },
      { reservation_id: "v2", table_id: "t1", time: "20:00" },
    ]);
  });

  it("subscribes into subscriptions, checking the plan it names, where no list of plans joined is kept", async () => {
    const streaming = world(
      {
        plans: {
          basic: { plan_id: "basic", price: 7.99 },
          family: { plan_id: "family", price: 17.99 },
        },
        subscriptions: { s1: { subscription_id: "s1", plan_id: "basic" } },
        next_subscription_id: 2,
      },
      [
        tool("subscribe", "Subscribe to a plan.", { plan_id: text }, undefined, [
          error("PLAN_NOT_FOUND", "No such plan.", "the plan does not exist", 404),
        ]),
      ],
    );
    const done = await call(streaming, "subscribe", { plan_id: "family" });
    expect(done.after.plans).toEqual(streaming.state.plans);
    expect(done.after.subscriptions).toEqual({
      s1: { subscription_id: "s1", plan_id: "basic" },
      s2: { subscription_id: "s2", plan_id: "family" },
    });
    expect(done.after.next_subscription_id).toBe(3);
    expect(failure((await call(streaming, "subscribe", { plan_id: "gold" })).outcome)).toBe("PLAN_NOT_FOUND");
  });

  it("registers into registrations and submits into submissions", async () => {
    const school = world(
      {
        courses: [
          { course_id: "c1", title: "Pottery" },
          { course_id: "c2", title: "Joinery" },
        ],
        registrations: [{ registration_id: "g1", course_id: "c1", student: "Ann" }],
        submissions: [{ submission_id: "x1", course_id: "c1", essay: "On clay" }],
      },
      [
        tool("register_for_course", "Register a student for a course.", { course_id: text, student: text }),
        tool("submit_essay", "Submit an essay to a course.", { course_id: text, essay: text }),
      ],
    );
    const registered = await call(school, "register_for_course", { course_id: "c2", student: "Bo" });
    expect(registered.after.courses).toEqual(school.state.courses);
    expect(registered.after.registrations).toEqual([
      { registration_id: "g1", course_id: "c1", student: "Ann" },
      { registration_id: "g2", course_id: "c2", student: "Bo" },
    ]);
    const submitted = await call(school, "submit_essay", { course_id: "c2", essay: "On oak" });
    expect((submitted.after.submissions as Rows).at(-1)).toEqual({
      submission_id: "x2",
      course_id: "c2",
      essay: "On oak",
    });
    expect(failure((await call(school, "submit_essay", { course_id: "c9", essay: "?" })).outcome)).toBe(
      "COURSE_NOT_FOUND",
    );
  });

  it("comments on a post into comments, and posts to a channel into posts", async () => {
    const forum = world(
      {
        channels: [{ channel_id: "general", topic: "Anything" }],
        posts: [{ post_id: "p1", channel_id: "general", text: "Hello" }],
        comments: [{ comment_id: "c1", post_id: "p1", text: "Hi" }],
      },
      [
        tool("comment_on_post", "Comment on a post.", { post_id: text, text: text }),
        tool("post_to_channel", "Post to a channel.", { channel_id: text, text: text }),
      ],
    );
    const commented = await call(forum, "comment_on_post", { post_id: "p1", text: "Nice" });
    expect(commented.after.comments).toEqual([
      { comment_id: "c1", post_id: "p1", text: "Hi" },
      { comment_id: "c2", post_id: "p1", text: "Nice" },
    ]);
    expect(commented.after.posts).toEqual(forum.state.posts);
    expect(failure((await call(forum, "comment_on_post", { post_id: "p9", text: "?" })).outcome)).toBe(
      "POST_NOT_FOUND",
    );
    const posted = await call(forum, "post_to_channel", { channel_id: "general", text: "News" });
    expect(posted.after.posts).toEqual([
      { post_id: "p1", channel_id: "general", text: "Hello" },
      { post_id: "p2", channel_id: "general", text: "News" },
    ]);
    expect(posted.after.channels).toEqual(forum.state.channels);
  });
});
