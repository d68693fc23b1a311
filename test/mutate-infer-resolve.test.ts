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
    // a list answers each guest with the key the other tools take, which the records then keep
    expect((await call(bakery, "get_guest", { guest_id: "g2" })).answer).toEqual({
      guest_id: "g2",
      name: "Ben",
    });
    expect((await call(bakery, "list_guests", {})).answer).toEqual([
      { guest_id: "g1", name: "Ann" },
      { guest_id: "g2", name: "Ben" },
    ]);
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

describe("an argument that names a record, more closely", () => {
  const bank = (): State => ({
    accounts: [
      { account_id: "a1", owner: "Ida", balance: 50 },
      { account_id: "a2", owner: "Ola", balance: 5 },
    ],
  });
  const readBy = async (param: string, state: State = bank()) => {
    const { answer, report } = await call(
      world(state, [tool("get_account", "Get an account.", { [param]: text })]),
      "get_account",
      { [param]: "a2" },
    );
    return { answer, notes: report.notes };
  };

  it("reads past a word of direction before the noun, not past a role", async () => {
    for (const param of ["source_account_id", "fromAccountId", "target_account_id", "to_account_id"]) {
      const { answer, notes } = await readBy(param);
      expect(answer, param).toEqual({ account_id: "a2", owner: "Ola", balance: 5 });
      expect(notes, param).toContain(`reads accounts/[account_id=…] by ${param}`);
    }
    // a payer is a role: no collection of payer accounts, and no direction to read past
    const payer = await readBy("payer_account_id");
    expect(payer.notes).not.toContain("reads accounts/[account_id=…] by payer_account_id");
    expect(payer.answer).not.toEqual({ account_id: "a2", owner: "Ola", balance: 5 });
  });

  it("takes an argument without a type for a key", async () => {
    const { answer, report } = await call(
      clinic(tool("get_pet", "Get a pet.", { pet_id: { description: "The pet." } })),
      "get_pet",
      { pet_id: "P-1003" },
    );
    expect(answer).toEqual({ pet_id: "P-1003", name: "Bo", keeper: "o2" });
    expect(report.notes).toContain("reads pets/[pet_id=…] by pet_id");
  });

  it("takes a bare `uuid` or `key` for the key of what the name names, in a registry too", async () => {
    for (const param of ["uuid", "key"]) {
      const { answer, report } = await call(
        clinic(tool("get_pet", "Get a pet.", { [param]: text })),
        "get_pet",
        { [param]: "P-1002" },
      );
      expect(answer, param).toMatchObject({ name: "Mia" });
      expect(report.notes, param).toContain(`reads pets/[pet_id=…] by ${param}`);
    }
    const registry = world({ pet_registry: pets(clinicState()) }, [
      tool("get_pet", "Get a pet.", { id: text }),
    ]);
    const { answer, report } = await call(registry, "get_pet", { id: "P-1002" });
    expect(answer).toMatchObject({ name: "Mia" });
    expect(report.notes).toContain("reads pet_registry/[pet_id=…] by id");
  });

  it("finds a vet by the login the argument is named for, and by an example that is a login", async () => {
    const byLogin = await call(clinic(tool("get_vet", "Get a vet.", { login: text })), "get_vet", {
      login: "drholm",
    });
    expect(byLogin.answer).toEqual({ login: "drholm", name: "Dr Holm", room: 2 });
    expect(byLogin.report.notes).toContain("reads vets/[login=…] by login");
    const byRef = (example: string) =>
      call(
        clinic(
          tool("get_vet", "Get a vet.", {
            ref: { type: "string", description: `The vet's reference, such as '${example}'.` },
          }),
        ),
        "get_vet",
        { ref: "drholm" },
      );
    const named = await byRef("drlund");
    expect(named.answer).toEqual({ login: "drholm", name: "Dr Holm", room: 2 });
    expect(named.report.notes).toContain("reads vets/[login=…] by ref");
    // an example of the logins' outline that is no login: an outline without digits tells nothing
    for (const example of ["xxxxxx", "dr-lund"]) {
      const unnamed = await byRef(example);
      expect(unnamed.report.notes, example).not.toContain("reads vets/[login=…] by ref");
    }
  });

  it("reads a pet by a reference whose example has the outline of the pets' ids", async () => {
    const byRef = (example: string) =>
      call(
        clinic(
          tool("get_pet", "Get a pet.", {
            ref: { type: "string", description: `The reference, such as '${example}'.` },
          }),
        ),
        "get_pet",
        { ref: "P-1002" },
      );
    const like = await byRef("P-2000");
    expect(like.answer).toMatchObject({ name: "Mia" });
    expect(like.report.notes).toContain("reads pets/[pet_id=…] by ref");
    const unlike = await byRef("PET2000");
    expect(unlike.report.notes).not.toContain("reads pets/[pet_id=…] by ref");
  });

  it("names a vet by natural key only where vets are kept in a list by a key that is no id", async () => {
    const byVet = async (state: State, type: unknown = text) => {
      const { report } = await call(world(state, [tool("get_vet", "Get a vet.", { vet: type })]), "get_vet", {
        vet: "drlund",
      });
      return report.notes;
    };
    expect(await byVet(clinicState())).toContain("reads vets/[login=…] by vet");
    for (const type of [{ type: "boolean" }, { type: "object" }])
      expect(await byVet(clinicState(), type), JSON.stringify(type)).not.toContain(
        "reads vets/[login=…] by vet",
      );
    const inMap = { vets: { drlund: { login: "drlund", name: "Dr Lund" }, drholm: { login: "drholm" } } };
    expect(await byVet(inMap)).not.toContain("reads vets/[login=…] by vet");
    const byId = { vets: [{ vet_id: "drlund" }, { vet_id: "drholm" }] };
    expect(await byVet(byId)).not.toContain("reads vets/[vet_id=…] by vet");
    const byBareId = { vets: [{ id: "drlund" }, { id: "drholm" }] };
    expect(await byVet(byBareId)).not.toContain("reads vets/[id=…] by vet");
    const byCamelId = { vets: [{ vetId: "drlund" }, { vetId: "drholm" }] };
    expect(await byVet(byCamelId)).not.toContain("reads vets/[vetId=…] by vet");
    // a list of logins names several vets
    const many = await call(
      clinic(tool("get_vets", "Get vets.", { vets: { type: "array", items: text } })),
      "get_vets",
      { vets: ["drholm"] },
    );
    expect(many.report.notes).toContain("lists vets where login in vets");
    expect(many.answer).toEqual([{ login: "drholm", name: "Dr Holm", room: 2 }]);
  });

  it("takes a bare id for the one collection the name names, whichever comes first", async () => {
    for (const name of ["get_owner", "get_owner_details"]) {
      const { answer, report } = await call(clinic(tool(name, "Get an owner.", { id: text })), name, {
        id: "o2",
      });
      expect(answer, name).toEqual({ owner_id: "o2", name: "Per" });
      expect(report.notes, name).toContain("reads owners/[owner_id=…] by id");
    }
    // a name that names nothing the state keeps: no record, and no guess
    const { report } = await call(
      clinic(tool("get_receipt", "Get a receipt.", { id: text })),
      "get_receipt",
      {
        id: "o2",
      },
    );
    expect(report.verdict).toBe("not inferred");
    // a key of two words is no bare key
    const coded = await call(clinic(tool("get_pet", "Get a pet.", { key_code: text })), "get_pet", {
      key_code: "P-1001",
    });
    expect(coded.report.notes).not.toContain("reads pets/[pet_id=…] by key_code");
  });

  it("filters by a card number, which names no card by its noun", async () => {
    const wallet = world(
      {
        cards: [
          { card_id: "k1", card_number: "4111", holder: "Ida" },
          { card_id: "k2", card_number: "5500", holder: "Ola" },
        ],
      },
      [tool("find_card", "Find a card by its number.", { card_number: text })],
    );
    const { answer, report } = await call(wallet, "find_card", { card_number: "5500" });
    expect(answer).toEqual([{ card_id: "k2", card_number: "5500", holder: "Ola" }]);
    expect(report.notes).toEqual(["lists cards where card_number"]);
  });

  it("finds records kept under a longer name or a container word by a key field of another name", async () => {
    const slots = world(
      {
        open_delivery_slots: [
          { id: "s1", day: "Mon" },
          { id: "s2", day: "Tue" },
        ],
      },
      [tool("get_slot", "Get a delivery slot.", { delivery_slot_id: text })],
    );
    const slot = await call(slots, "get_slot", { delivery_slot_id: "s2" });
    expect(slot.answer).toEqual({ id: "s2", day: "Tue" });
    expect(slot.report.notes).toContain("reads open_delivery_slots/[id=…] by delivery_slot_id");
    const listed = world(
      {
        pet_list: [
          { id: "x1", name: "Rex" },
          { id: "x2", name: "Mia" },
        ],
      },
      [tool("get_pet", "Get a pet.", { pet_id: text })],
    );
    const pet = await call(listed, "get_pet", { pet_id: "x2" });
    expect(pet.answer).toEqual({ id: "x2", name: "Mia" });
    expect(pet.report.notes).toContain("reads pet_list/[id=…] by pet_id");
  });

  it("reads by an example of the outline of some of the keys, not all", async () => {
    const mixed = world(
      {
        pets: [
          { pet_id: "P-1001", name: "Rex" },
          { pet_id: "PX-7", name: "Mia" },
        ],
      },
      [tool("get_pet", "Get a pet.", { ref: { type: "string", description: "Such as 'P-2000'." } })],
    );
    const { answer, report } = await call(mixed, "get_pet", { ref: "PX-7" });
    expect(answer).toEqual({ pet_id: "PX-7", name: "Mia" });
    expect(report.notes).toContain("reads pets/[pet_id=…] by ref");
  });

  it("reads past a direction before a noun of two words", async () => {
    const bank = world({ bank_accounts: [{ id: "x1" }, { id: "x2" }] }, [
      tool("get_bank_account", "Get a bank account.", { from_bank_account_id: text }),
    ]);
    const { answer, report } = await call(bank, "get_bank_account", { from_bank_account_id: "x2" });
    expect(answer).toEqual({ id: "x2" });
    expect(report.notes).toContain("reads bank_accounts/[id=…] by from_bank_account_id");
  });

  it("finds a delivery slot in a list named for slots by a key field of another name", async () => {
    const slots = world({ delivery_slot_list: [{ id: "s1" }, { id: "s2" }] }, [
      tool("get_delivery_slot", "Get a delivery slot.", { delivery_slot_id: text }),
    ]);
    const { answer, report } = await call(slots, "get_delivery_slot", { delivery_slot_id: "s2" });
    expect(answer).toEqual({ id: "s2" });
    expect(report.notes).toContain("reads delivery_slot_list/[id=…] by delivery_slot_id");
  });

  it("takes a bare id for the last noun that names a collection keyed by it, where the name's part is keyed otherwise", async () => {
    const yard = world(
      {
        bins: [{ id: "b1" }, { id: "b2" }],
        crates: [
          { id: "c1", idBin: "b1" },
          { id: "c2", idBin: "b1" },
        ],
        labels: [{ label_id: "l1", text: "fragile" }],
      },
      [
        tool("get_crate_label", "Get a crate's label.", { id: text }),
        tool("get_bin_crate_label", "Get the label of a crate in a bin.", { id: text }),
      ],
    );
    for (const name of ["get_crate_label", "get_bin_crate_label"]) {
      const { answer, report } = await call(yard, name, { id: "c2" });
      expect(answer, name).toEqual({ id: "c2", idBin: "b1" });
      expect(report.notes, name).toContain("reads crates/[id=…] by id");
    }
  });

  it("reads a box kept inside a shelf by the bare id the name names, not the shelf", async () => {
    const shed = world(
      {
        shelves: [
          { id: "s1", boxes: [{ id: "x1", label: "bolts" }] },
          { id: "s2", boxes: [{ id: "x2", label: "fuses" }] },
        ],
      },
      [tool("get_box", "Get a box.", { id: text }), tool("get_shelf", "Get a shelf.", { id: text })],
    );
    const box = await call(shed, "get_box", { id: "x2" });
    expect(box.answer).toEqual({ id: "x2", label: "fuses" });
    expect(box.report.notes).toContain("reads shelves/[id=…]/boxes/[id=…] by id");
    const shelf = await call(shed, "get_shelf", { id: "s1" });
    expect(shelf.answer).toEqual({ id: "s1", boxes: [{ id: "x1", label: "bolts" }] });
  });

  it("takes a bare id for the record the name names besides the one another argument names", async () => {
    const yard = world(
      {
        bins: [
          { id: "b1", row: 1 },
          { id: "b2", row: 2 },
        ],
        crates: [
          { id: "c1", idBin: "b1", label: "nails" },
          { id: "c2", idBin: "b1", label: "screws" },
        ],
      },
      [
        tool("update_crate", "Update a crate.", { id: text, idBin: text, label: text }),
        tool("get_bin_crate", "Get a crate of a bin.", { id: text }),
        tool("get_crate_bin", "Get the bin of a crate.", { id: text }),
      ],
    );
    const moved = await call(yard, "update_crate", { id: "c2", idBin: "b2", label: "tacks" });
    expect(moved.after.crates).toEqual([
      { id: "c1", idBin: "b1", label: "nails" },
      { id: "c2", idBin: "b2", label: "tacks" },
    ]);
    expect(moved.after.bins).toEqual(yard.state.bins);
    expect(failure((await call(yard, "update_crate", { id: "c9", idBin: "b2", label: "x" })).outcome)).toBe(
      "CRATE_NOT_FOUND",
    );
    // beside an argument that names the bin, a bare id is not taken for a bin's
    const inBin = await call(
      world(yard.state, [tool("get_crate_in_bin", "Get a crate in a bin.", { id: text, idBin: text })]),
      "get_crate_in_bin",
      { id: "c2", idBin: "b1" },
    );
    expect(failure(inBin.outcome)).toBe("not failed: applied");
    expect(inBin.report.notes).not.toContain("reads bins/[id=…] by id");
    // the head noun names the record a bare id is the key of
    expect((await call(yard, "get_bin_crate", { id: "c2" })).answer).toMatchObject({ label: "screws" });
    expect((await call(yard, "get_crate_bin", { id: "b2" })).answer).toEqual({ id: "b2", row: 2 });
  });
});

describe("the key an argument's description names", () => {
  // notes kept by their map's keys: a collection with no key field
  const notes = { n1: { text: "Bites." }, n2: { text: "Shy." } };
  const described = (description: string) =>
    world({ ...clinicState(), visit_notes: notes }, [
      tool(
        "transfer_pet",
        "Transfer a pet to a new keeper.",
        { pet_id: text, new_keeper_id: { type: "string", description } },
        undefined,
        [
          error("OWNER_NOT_FOUND", "Owner not found.", "No owner has the given id.", 404),
          error("VET_NOT_FOUND", "Vet not found.", "No vet has the given login.", 404),
          error("PET_NOT_FOUND", "Pet not found.", "No pet has the given id.", 404),
        ],
      ),
    ]);
  const checked = async (description: string) => {
    const { outcome, report } = await call(described(description), "transfer_pet", {
      pet_id: "P-1001",
      new_keeper_id: "o9",
    });
    return { code: failure(outcome), notes: report.notes };
  };

  it("reads the key written with a space, a hyphen, run together or in capitals", async () => {
    for (const description of [
      "The owner id of the new keeper.",
      "The owner-id of the new keeper.",
      "The ownerid of the new keeper.",
      "The OWNER_ID of the new keeper.",
    ]) {
      const { code, notes } = await checked(description);
      expect(code, description).toBe("OWNER_NOT_FOUND");
      expect(notes, description).toContain("checks new_keeper_id exists (OWNER_NOT_FOUND)");
    }
  });

  it("reads no key inside another word, no key of one word, and none where two are named", async () => {
    for (const description of [
      "The co_owner_id of the new keeper.",
      "The owner_ids of the keepers.",
      "The owner_id or pet_id of the new keeper.",
      "The login of the new keeper.",
      "",
    ]) {
      const { code, notes } = await checked(description);
      expect(code, description).toBe("not failed: applied");
      expect(
        notes.some((n) => n.startsWith("checks new_keeper_id")),
        description,
      ).toBe(false);
    }
  });
});

describe("the part a tool's name names, more closely", () => {
  const studio = () => ({
    settings: { volume: 3 },
    sound_settings: { bass: 2, treble: 1 },
    payment_cards: [{ card_id: "k1", last4: "1111" }],
    liked_track_ids: ["t1"],
    tracks: [
      { track_id: "t1", title: "Dawn" },
      { track_id: "t2", title: "Dusk" },
    ],
  });
  const read = async (name: string, state: State = studio()) => {
    const { answer, report } = await call(world(state, [tool(name, "Read it.")]), name, {});
    return { answer, notes: report.notes, verdict: report.verdict };
  };

  it("takes the longest run of the name's nouns that names a part", async () => {
    expect((await read("get_sound_settings")).answer).toEqual({ bass: 2, treble: 1 });
    expect((await read("get_settings")).answer).toEqual({ volume: 3 });
    expect((await read("get_all_my_sound_settings")).answer).toEqual({ bass: 2, treble: 1 });
  });

  it("stops at `for`, `with`, `using`, `via`: what follows selects, even where it names a part", async () => {
    for (const name of [
      "get_settings_for_tracks",
      "get_settings_with_tracks",
      "get_settings_using_tracks",
      "get_settings_via_tracks",
    ]) {
      const { answer, notes } = await read(name);
      expect(answer, name).toEqual({ volume: 3 });
      expect(notes, name).toEqual(["reads settings"]);
    }
    // a name that starts with `by` is not cut to nothing
    expect((await read("list_by_tracks")).notes).toEqual(["lists tracks"]);
  });

  it("reads a list of ids by what they identify, in camelCase too", async () => {
    const { answer, notes } = await read("get_liked_tracks");
    expect(answer).toEqual({ liked_track_ids: ["t1"] });
    expect(notes).toEqual(["reads the list liked_track_ids"]);
    const camel = await read("get_liked_tracks", { likedTrackIds: ["t2"], tracks: studio().tracks });
    expect(camel.answer).toEqual({ likedTrackIds: ["t2"] });
  });

  it("takes a part named by four words and more whole, not the part its last three name", async () => {
    const alone = await read("get_front_door_lock_settings", {
      front_door_lock_settings: { pin: "1234" },
      porch: { light: false },
    });
    expect(alone.answer).toEqual({ pin: "1234" });
    expect(alone.notes).toEqual(["reads front_door_lock_settings"]);
    const beside = await read("get_front_door_lock_settings", {
      front_door_lock_settings: { pin: "1234" },
      door_lock_settings: { pin: "0000" },
    });
    expect(beside.answer).toEqual({ pin: "1234" });
    const door = await read("get_door_lock_settings", {
      front_door_lock_settings: { pin: "1234" },
      door_lock_settings: { pin: "0000" },
    });
    expect(door.answer).toEqual({ pin: "0000" });
  });

  it("takes the collection whose name ends with the head noun, where only one does", async () => {
    const one = await read("list_cards");
    expect(one.answer).toEqual([{ card_id: "k1", last4: "1111" }]);
    expect(one.notes).toEqual(["lists payment_cards"]);
    // a list of plain values is no collection of cards
    expect((await read("list_cards", { ...studio(), saved_cards: ["k1"] })).notes).toEqual([
      "lists payment_cards",
    ]);
    // the last word of a longer name
    expect((await read("list_cards", { saved_payment_cards: [{ card_id: "k1" }] })).notes).toEqual([
      "lists saved_payment_cards",
    ]);
    const two = await read("list_cards", { ...studio(), gift_cards: [{ card_id: "g1" }] });
    expect(two.verdict).toBe("not inferred");
    expect(two.answer).toBeUndefined();
  });
});

describe("the list a membership verb keeps, more closely", () => {
  const tracks = [
    { track_id: "t1", title: "Dawn" },
    { track_id: "t2", title: "Dusk" },
  ];
  const lists = () => ({
    favorites: [] as string[],
    bookmarks: [] as string[],
    watching: [] as string[],
    pinned: [] as string[],
    tagged: [] as string[],
    saves: [] as string[],
    subscriptions: [] as string[],
  });

  it("keeps each verb's list, named by its participle, its plural or its noun", async () => {
    const verbs: Record<string, keyof ReturnType<typeof lists>> = {
      favorite_track: "favorites",
      bookmark_track: "bookmarks",
      watch_track: "watching",
      pin_track: "pinned",
      tag_track: "tagged",
      save_track: "saves",
      subscribe_track: "subscriptions",
    };
    for (const [name, list] of Object.entries(verbs)) {
      const { after, report } = await call(
        world({ tracks, me: lists() }, [tool(name, "Keep a track.", { track_id: text })]),
        name,
        { track_id: "t2" },
      );
      expect(after.me, name).toEqual({ ...lists(), [list]: ["t2"] });
      // the track added must exist: its not-found error is added before the list is changed
      expect(report.notes, name).toEqual([
        "added documented error TRACK_NOT_FOUND (No track has the given track_id (inferred from the state's tracks).)",
        `adds track_id to me/${list}, once`,
      ]);
    }
    const { after } = await call(
      world({ tracks, me: { ...lists(), favorites: ["t1", "t2"] } }, [
        tool("unfavorite_track", "Unfavorite a track.", { track_id: text }),
      ]),
      "unfavorite_track",
      { track_id: "t1" },
    );
    expect(after.me).toEqual({ ...lists(), favorites: ["t2"] });
  });

  it("keeps a list whose first word is the verb itself", async () => {
    const { after } = await call(
      world({ tracks, me: { watch_list: [] as string[], play_list: ["t1"] } }, [
        tool("watch_track", "Watch a track later.", { track_id: text }),
      ]),
      "watch_track",
      { track_id: "t2" },
    );
    expect(after.me).toEqual({ watch_list: ["t2"], play_list: ["t1"] });
  });

  it("takes no list of the verb where two are named for it", async () => {
    const { after } = await call(
      world({ tracks, me: { favorites: [], favorited_ids: [] } }, [
        tool("favorite_track", "Favorite a track.", { track_id: text }),
      ]),
      "favorite_track",
      { track_id: "t2" },
    );
    expect(after.me).toEqual({ favorites: [], favorited_ids: [] });
  });

  it("keeps the playlist a plain verb names, not a list named for the verb", async () => {
    const me = () => ({
      play_list: ["t1"],
      added_tracks: [] as string[],
      removed_tracks: ["t1"],
      deleted_tracks: ["t1"],
      dropped_tracks: ["t1"],
      included_tracks: [] as string[],
      excluded_tracks: ["t1"],
      appended_tracks: [] as string[],
    });
    const cases: Array<[string, string, string[]]> = [
      ["add_track_to_playlist", "t2", ["t1", "t2"]],
      ["append_track_to_playlist", "t2", ["t1", "t2"]],
      ["include_track_in_playlist", "t2", ["t1", "t2"]],
      ["remove_track_from_playlist", "t1", []],
      ["delete_track_from_playlist", "t1", []],
      ["drop_track_from_playlist", "t1", []],
      ["exclude_track_from_playlist", "t1", []],
    ];
    for (const [name, track, playList] of cases) {
      const { after } = await call(
        world({ tracks, me: me() }, [tool(name, "Change the playlist.", { track_id: text })]),
        name,
        { track_id: track },
      );
      expect(after.me, name).toEqual({ ...me(), play_list: playList });
    }
  });
});

describe("the collection an action files its record in, more closely", () => {
  const school = (more: State = {}) =>
    world(
      {
        courses: [{ course_id: "c1", title: "Pottery" }],
        enrollments: [{ enrollment_id: "e1", course_id: "c1", student: "Ann" }],
        invitation_log: [{ invitation_id: "i1", course_id: "c1", guest: "Bo" }],
        ...more,
      },
      [
        tool("enroll_student", "Enroll a student in a course.", { course_id: text, student: text }),
        tool("invite_guest", "Invite a guest to a course.", { course_id: text, guest: text }),
      ],
    );

  it("enrolls into enrollments and invites into an invitation log", async () => {
    const enrolled = await call(school(), "enroll_student", { course_id: "c1", student: "Cy" });
    expect(enrolled.after.enrollments).toEqual([
      { enrollment_id: "e1", course_id: "c1", student: "Ann" },
      { enrollment_id: "e2", course_id: "c1", student: "Cy" },
    ]);
    expect(enrolled.after.courses).toEqual([{ course_id: "c1", title: "Pottery" }]);
    const invited = await call(school(), "invite_guest", { course_id: "c1", guest: "Di" });
    expect(invited.after.invitation_log).toEqual([
      { invitation_id: "i1", course_id: "c1", guest: "Bo" },
      { invitation_id: "i2", course_id: "c1", guest: "Di" },
    ]);
  });

  it("files a tax return into filings", async () => {
    const office = world({ filings: [{ filing_id: "f1", year: 2024 }] }, [
      tool("file_tax_return", "File a tax return for a year.", { year: { type: "integer" } }),
    ]);
    const { after, report } = await call(office, "file_tax_return", { year: 2025 });
    expect(after.filings).toEqual([
      { filing_id: "f1", year: 2024 },
      { filing_id: "f2", year: 2025 },
    ]);
    expect(report.notes).toContain("creates a filing in filings with year");
  });

  it("generates into generations, the noun of the verb", async () => {
    const press = world(
      {
        courses: [{ course_id: "c1" }],
        generations: [{ generation_id: "e1", course_id: "c1" }],
      },
      [tool("generate_for_course", "Generate course material.", { course_id: text })],
    );
    const { after } = await call(press, "generate_for_course", { course_id: "c1" });
    expect(after.generations).toEqual([
      { generation_id: "e1", course_id: "c1" },
      { generation_id: "e2", course_id: "c1" },
    ]);
    expect(after.courses).toEqual([{ course_id: "c1" }]);
  });

  it("files nothing where two collections are named for the action", async () => {
    const archived = { enrollment_archive: [{ enrollment_id: "e0", course_id: "c1", student: "Al" }] };
    const { after } = await call(school(archived), "enroll_student", { course_id: "c1", student: "Cy" });
    expect(after.enrollments).toEqual([{ enrollment_id: "e1", course_id: "c1", student: "Ann" }]);
    expect(after.enrollment_archive).toEqual(archived.enrollment_archive);
  });
});
