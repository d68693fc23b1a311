import { describe, expect, it } from "vitest";
import {
  bool,
  call,
  error,
  failure,
  integer,
  number,
  outputs,
  type State,
  text,
  tool,
  world,
} from "./support/infer-world.js";

/**
 * File systems (docs/inference.md): tools read by their name's verbs and the paths their
 * arguments give, acting on the tree the state keeps: list, make, read, write, move, copy,
 * remove, find, and the text utilities on a file's lines.
 */

const folder = (children: Record<string, unknown>) => ({ type: "directory", children });
const file = (content: string) => ({ type: "file", content });

/** A band's shared drive: lyrics, set lists and a readme. */
const drive = (): State => ({
  drive: {
    cwd: "/",
    root: folder({
      lyrics: folder({
        "ocean.txt": file("la la\nthe tide comes in\nla la\n"),
        "road.txt": file("miles and miles\n"),
      }),
      setlists: folder({ "june.txt": file("ocean\nroad\n") }),
      demos: folder({}),
      "readme.md": file("band notes\n"),
    }),
  },
});

const path = { path: text };

/** Runs one tool of the drive; the answer, the error code, the drive after. */
const run = async (made: unknown, args: Record<string, unknown>, state: State = drive()) => {
  const name = (made as { name: string }).name;
  const { outcome, answer, after, report } = await call(world(drive(), [made]), name, args, state);
  return {
    answer,
    code: outcome.status === "failed" ? failure(outcome) : undefined,
    root: (after.drive as { root: unknown }).root,
    notes: report.notes,
  };
};

/** The node at a path of a drive's root. */
const at = (root: unknown, where: string): unknown =>
  where
    .split("/")
    .filter(Boolean)
    .reduce<unknown>(
      (node, part) => (node as { children?: Record<string, unknown> })?.children?.[part],
      root,
    );

describe("reading the drive", () => {
  it("lists what a folder holds", async () => {
    const list = tool("list_folder", "List what a folder holds.", path, []);
    expect((await run(list, { path: "/lyrics" })).answer).toEqual(["ocean.txt", "road.txt"]);
    expect((await run(list, { path: "/nowhere" })).code).toBe("NO_SUCH_FILE_OR_DIRECTORY");
  });

  it("reads a file's text, and refuses a folder or a missing file", async () => {
    const read = tool("read_file", "Read a file.", path);
    expect((await run(read, { path: "/lyrics/road.txt" })).answer).toBe("miles and miles\n");
    expect((await run(read, { path: "/lyrics" })).code).toBe("IS_A_DIRECTORY");
    expect((await run(read, { path: "/lyrics/sea.txt" })).code).toBe("NO_SUCH_FILE_OR_DIRECTORY");
  });

  it("answers what a path is under the outputs that ask", async () => {
    const info = tool(
      "file_info",
      "What a path is.",
      path,
      ["path"],
      [],
      outputs({ type: text, size: integer, name: text }),
    );
    expect((await run(info, { path: "/readme.md" })).answer).toEqual({
      type: "file",
      size: 11,
      name: "readme.md",
    });
  });

  it("answers the bytes under a folder", async () => {
    const usage = tool("disk_usage", "Bytes used under a folder.", path, [], [], outputs({ size: integer }));
    expect((await run(usage, { path: "/lyrics" })).answer).toEqual({ size: 46 });
  });

  it("finds files by a pattern", async () => {
    const search = tool(
      "search_files",
      "Find files whose names match a pattern.",
      { pattern: text, path: text },
      ["pattern"],
    );
    expect((await run(search, { pattern: "*.txt", path: "/lyrics" })).answer).toEqual([
      "/lyrics/ocean.txt",
      "/lyrics/road.txt",
    ]);
  });
});

describe("the text utilities on a file's lines", () => {
  const lyric = { path: "/lyrics/ocean.txt" };

  it("answers the lines that contain a pattern, sorted lines, the first and last lines", async () => {
    const grep = tool("grep_file", "Lines containing a pattern.", { path: text, pattern: text });
    expect((await run(grep, { ...lyric, pattern: "tide" })).answer).toEqual(["the tide comes in"]);
    const sort = tool("sort_file", "The file's lines in order.", path);
    expect((await run(sort, lyric)).answer).toBe("la la\nla la\nthe tide comes in");
    const head = tool("file_head", "The first lines of a file.", { path: text, lines: integer }, ["path"]);
    expect((await run(head, { ...lyric, lines: 2 })).answer).toBe("la la\nthe tide comes in");
    const tail = tool("file_tail", "The last lines of a file.", { path: text, lines: integer }, ["path"]);
    expect((await run(tail, { ...lyric, lines: 1 })).answer).toBe("la la");
    expect((await run(tail, lyric)).answer).toBe("la la\nthe tide comes in\nla la");
  });

  it("answers the lines that differ between two files", async () => {
    const diff = tool(
      "compare_files",
      "The lines that differ between two files.",
      { first_file: text, second_file: text },
      undefined,
      [],
      outputs({ diff: text }),
    );
    const answer = await run(diff, { first_file: "/lyrics/road.txt", second_file: "/setlists/june.txt" });
    expect(answer.answer).toEqual({ diff: "- miles and miles\n+ ocean\n+ road" });
  });
});

describe("listings tagged and files read together", () => {
  it("tags each listed name with its kind where the docs show the tags", async () => {
    const list = tool(
      "list_folder",
      "List what a folder holds. Folders are marked [DIR] and files [FILE].",
      path,
      [],
      [],
      outputs({ listing: text }),
    );
    expect((await run(list, { path: "/" })).answer).toEqual({
      listing: "[DIR] lyrics\n[DIR] setlists\n[DIR] demos\n[FILE] readme.md",
    });
  });

  it("answers a folder's whole tree as JSON nodes where the docs say so, types in the docs' words", async () => {
    const tree = tool(
      "folder_tree",
      "A recursive tree of a folder as JSON: each entry has 'name', 'type' (file/folder) and 'children' for folders, with 2-space indentation.",
      path,
      [],
      [],
      outputs({ tree: text }),
    );
    const { answer } = await run(tree, { path: "/lyrics" });
    const nodes = [
      { name: "ocean.txt", type: "file" },
      { name: "road.txt", type: "file" },
    ];
    expect(answer).toEqual({ tree: JSON.stringify(nodes, null, 2) });
    const top = JSON.parse(((await run(tree, { path: "/" })).answer as { tree: string }).tree);
    expect(top[2]).toEqual({ name: "demos", type: "folder", children: [] });
    expect((await run(tree, { path: "/readme.md" })).code).toBe("NOT_A_DIRECTORY");
  });

  it("answers what a path is as `field: value` lines where the tool answers one text", async () => {
    const info = tool(
      "get_file_info",
      "Metadata of a file or folder.",
      path,
      [],
      [],
      outputs({ content: text }),
    );
    expect((await run(info, { path: "/lyrics/road.txt" })).answer).toEqual({
      content: "name: road.txt\npath: /lyrics/road.txt\ntype: file\nsize: 16",
    });
  });

  it("reads several files at once, each under its path, one that cannot be read answering its error", async () => {
    const read = tool(
      "read_files",
      "Read several files at once.",
      { paths: { type: "array", items: text } },
      undefined,
      [],
      outputs({ text }),
    );
    const { answer, notes } = await run(read, {
      paths: ["/lyrics/road.txt", "/lyrics/sea.txt", "/readme.md"],
    });
    expect(answer).toEqual({
      text: "/lyrics/road.txt:\nmiles and miles\n\n---\n/lyrics/sea.txt: Error - No such file or directory. (/lyrics/sea.txt)\n---\n/readme.md:\nband notes\n",
    });
    expect(notes).toContain("reads each of paths in the tree, answered under text");
  });
});

describe("editing a file's text", () => {
  const edits = {
    type: "array",
    items: { type: "object", properties: { oldText: text, newText: text }, required: ["oldText", "newText"] },
  };

  it("replaces the first exact occurrence of each text, answering a diff of the lines changed", async () => {
    const edit = tool("edit_file", "Replace texts in a file.", { path: text, edits, dryRun: bool }, [
      "path",
      "edits",
    ]);
    const lyric = "/lyrics/ocean.txt";
    const done = await run(edit, { path: lyric, edits: [{ oldText: "la la", newText: "ha ha" }] });
    expect(at(done.root, lyric)).toEqual(file("ha ha\nthe tide comes in\nla la\n"));
    expect(done.answer).toBe(`--- ${lyric}\n+++ ${lyric}\n@@ edit 1 @@\n-la la\n+ha ha`);
    // a dry run answers the same and keeps the file
    const dry = await run(edit, {
      path: lyric,
      edits: [{ oldText: "la la", newText: "ha ha" }],
      dryRun: true,
    });
    expect(dry.answer).toBe(done.answer);
    expect(at(dry.root, lyric)).toEqual(file("la la\nthe tide comes in\nla la\n"));
  });

  it("refuses a text that is not in the file and a file that is not there, changing nothing", async () => {
    const edit = tool("str_replace", "Replace one text in a file.", {
      path: text,
      old_str: text,
      new_str: text,
    });
    const missing = await run(edit, { path: "/lyrics/road.txt", old_str: "kilometres", new_str: "miles" });
    expect(missing.code).toBe("EDIT_NOT_APPLIED");
    expect(at(missing.root, "/lyrics/road.txt")).toEqual(file("miles and miles\n"));
    expect((await run(edit, { path: "/lyrics/sea.txt", old_str: "a", new_str: "b" })).code).toBe(
      "NO_SUCH_FILE_OR_DIRECTORY",
    );
    const done = await run(edit, {
      path: "/lyrics/road.txt",
      old_str: "miles and",
      new_str: "kilometres and",
    });
    expect(at(done.root, "/lyrics/road.txt")).toEqual(file("kilometres and miles\n"));
  });
});

describe("changing the drive", () => {
  it("makes a folder, and refuses one that exists", async () => {
    const make = tool("create_folder", "Make a folder.", path);
    expect(at((await run(make, { path: "/covers" })).root, "/covers")).toEqual(folder({}));
    expect((await run(make, { path: "/demos" })).code).toBe("FILE_EXISTS");
  });

  it("makes an empty file", async () => {
    const touch = tool("new_file", "Create an empty file.", path);
    expect(at((await run(touch, { path: "/demos/take1.txt" })).root, "/demos/take1.txt")).toEqual(file(""));
  });

  it("writes a file whole, or adds to its end", async () => {
    const save = tool("save_file", "Write text to a file, replacing it.", { path: text, content: text });
    expect(at((await run(save, { path: "/readme.md", content: "new\n" })).root, "/readme.md")).toEqual(
      file("new\n"),
    );
    const add = tool("append_to_file", "Add text at the end of a file.", { path: text, text: text });
    expect(at((await run(add, { path: "/readme.md", text: "more\n" })).root, "/readme.md")).toEqual(
      file("band notes\nmore\n"),
    );
  });

  it("moves a file into a folder, and copies one under a new name", async () => {
    const move = tool("rename_file", "Rename or move a file.", { source: text, destination: text });
    const moved = (await run(move, { source: "/readme.md", destination: "/lyrics" })).root;
    expect(at(moved, "/readme.md")).toBeUndefined();
    expect(at(moved, "/lyrics/readme.md")).toEqual(file("band notes\n"));
    const copy = tool("copy_file", "Copy a file.", { source: text, destination: text });
    const copied = (await run(copy, { source: "/readme.md", destination: "/notes.md" })).root;
    expect(at(copied, "/readme.md")).toEqual(file("band notes\n"));
    expect(at(copied, "/notes.md")).toEqual(file("band notes\n"));
  });

  it("removes an empty folder only, and a file", async () => {
    const rmdir = tool("delete_folder", "Remove an empty folder.", path);
    expect(at((await run(rmdir, { path: "/demos" })).root, "/demos")).toBeUndefined();
    expect((await run(rmdir, { path: "/setlists" })).code).toBe("DIRECTORY_NOT_EMPTY");
    const rm = tool("remove_file", "Delete a file.", path);
    expect(at((await run(rm, { path: "/readme.md" })).root, "/readme.md")).toBeUndefined();
  });
});

describe("what the arguments and the errors add", () => {
  it("changes folder, answering where it is, and refuses a file or a missing folder", async () => {
    const cd = tool("change_folder", "Go into a folder.", path, ["path"], [], outputs({ cwd: text }));
    const { outcome, answer, after } = await call(world(drive(), [cd]), "change_folder", { path: "lyrics" });
    expect(outcome.status).toBe("applied");
    expect(answer).toEqual({ cwd: "/lyrics" });
    // the drive keeps its current folder beside its root
    expect((after.drive as State).cwd).toBe("/lyrics");
    expect((await run(cd, { path: "/readme.md" })).code).toBe("NOT_A_DIRECTORY");
    expect((await run(cd, { path: "/tours" })).code).toBe("NO_SUCH_FILE_OR_DIRECTORY");
  });

  it("lists hidden entries only when asked", async () => {
    const withHidden = (): State => {
      const state = drive();
      (
        at((state.drive as { root: unknown }).root, "/demos") as { children: Record<string, unknown> }
      ).children[".draft"] = file("hum");
      return state;
    };
    const list = tool("list_folder", "List a folder.", { path: text, show_hidden: bool }, ["path"]);
    expect((await run(list, { path: "/demos" }, withHidden())).answer).toEqual([]);
    expect((await run(list, { path: "/demos", show_hidden: true }, withHidden())).answer).toEqual([".draft"]);
  });

  it("answers with the errors the tool documents, by their text or their errno", async () => {
    const read = tool(
      "read_file",
      "Read a file.",
      path,
      ["path"],
      [error("FILE_MISSING", "File not found."), error("EISDIR", "That path names a folder.")],
    );
    expect((await run(read, { path: "/nope.txt" })).code).toBe("FILE_MISSING");
    expect((await run(read, { path: "/lyrics" })).code).toBe("EISDIR");
    // a list that documents "not a directory" lists folders only, and refuses a file
    const list = tool(
      "list_folder",
      "List a folder.",
      path,
      ["path"],
      [error("NOT_A_FOLDER", "The path is not a folder.")],
    );
    expect((await run(list, { path: "/readme.md" })).code).toBe("NOT_A_FOLDER");
    const plain = tool("list_folder", "List a folder.", path, ["path"]);
    expect((await run(plain, { path: "/readme.md" })).answer).toEqual(["readme.md"]);
  });

  it("answers a size as text in bytes, and names as text one per line", async () => {
    const usage = tool("disk_usage", "Space used under a folder.", path, [], [], outputs({ usage: text }));
    expect((await run(usage, { path: "/lyrics" })).answer).toEqual({ usage: "46 bytes" });
    const list = tool("list_folder", "List a folder.", path, [], [], outputs({ listing: text }));
    expect((await run(list, { path: "/lyrics" })).answer).toEqual({ listing: "ocean.txt\nroad.txt" });
  });

  it("answers the whole description of a path where no output is named", async () => {
    const info = tool("file_info", "What a path is.", path);
    expect((await run(info, { path: "/readme.md" })).answer).toMatchObject({ type: "file", size: 11 });
  });

  it("finds names that contain a text, and gives absolute paths where it says so", async () => {
    const contains = tool("search_files", "Find files whose names contain a text.", { name: text });
    expect((await run(contains, { name: "ne" })).answer).toEqual(["./setlists/june.txt"]);
    const absolute = tool("search_files", "Find files by pattern; answers absolute paths.", {
      pattern: text,
    });
    expect((await run(absolute, { pattern: "*.md" })).answer).toEqual(["/readme.md"]);
  });

  it("counts a file's lines, words or characters, and says which", async () => {
    const wc = tool(
      "wc_file",
      "Count a file's lines, words or characters.",
      { path: text, mode: text },
      ["path"],
      [],
      outputs({
        count: integer,
        unit: text,
      }),
    );
    const lyric = "/lyrics/ocean.txt";
    expect((await run(wc, { path: lyric })).answer).toEqual({ count: 3, unit: "lines" });
    expect((await run(wc, { path: lyric, mode: "w" })).answer).toEqual({ count: 8, unit: "words" });
    expect((await run(wc, { path: lyric, mode: "words" })).answer).toEqual({ count: 8, unit: "words" });
    expect((await run(wc, { path: lyric, mode: "c" })).answer).toEqual({ count: 30, unit: "characters" });
    expect((await run(wc, { path: lyric, mode: "chars" })).answer).toEqual({ count: 30, unit: "characters" });
  });
});

describe("what the arguments of a change decide", () => {
  it("makes the folders above a new one where asked, and accepts one that exists where told", async () => {
    const make = tool("create_folder", "Make a folder.", { path: text, parents: bool, exist_ok: bool }, [
      "path",
    ]);
    expect((await run(make, { path: "/covers/2026" })).code).toBe("NO_SUCH_FILE_OR_DIRECTORY");
    expect(at((await run(make, { path: "/covers/2026", parents: true })).root, "/covers/2026")).toEqual(
      folder({}),
    );
    expect((await run(make, { path: "/demos", exist_ok: true })).code).toBeUndefined();
    const always = tool("create_folder", "Make a folder, and any missing parent folders.", path);
    expect(at((await run(always, { path: "/covers/2026" })).root, "/covers/2026")).toEqual(folder({}));
    expect((await run(always, { path: "/demos" })).code).toBe("FILE_EXISTS");
  });

  it("answers the path a change made where an output holds one", async () => {
    const make = tool("create_folder", "Make a folder.", path, ["path"], [], outputs({ created_path: text }));
    expect((await run(make, { path: "/covers" })).answer).toEqual({ created_path: "/covers" });
  });

  it("refuses to make a file that exists only where an error says so", async () => {
    const touch = tool("new_file", "Create an empty file.", path);
    const kept = await run(touch, { path: "/readme.md" });
    expect(kept.code).toBeUndefined();
    expect(at(kept.root, "/readme.md")).toEqual(file("band notes\n"));
    const strict = tool(
      "new_file",
      "Create an empty file.",
      path,
      ["path"],
      [error("TAKEN", "A file already exists there.")],
    );
    expect((await run(strict, { path: "/readme.md" })).code).toBe("TAKEN");
  });

  it("writes a new file where the description says it creates one, and appends where an argument says", async () => {
    const plain = tool("save_file", "Write text to a file.", { path: text, content: text });
    expect((await run(plain, { path: "/lyrics/new.txt", content: "hum\n" })).code).toBe(
      "NO_SUCH_FILE_OR_DIRECTORY",
    );
    const creating = tool("save_file", "Write text to a file. The file is created if it does not exist.", {
      path: text,
      content: text,
    });
    expect(
      at((await run(creating, { path: "/lyrics/new.txt", content: "hum\n" })).root, "/lyrics/new.txt"),
    ).toEqual(file("hum\n"));
    const flagged = tool("save_file", "Write text to a file.", { path: text, content: text, append: bool }, [
      "path",
      "content",
    ]);
    expect(
      at((await run(flagged, { path: "/readme.md", content: "x\n", append: true })).root, "/readme.md"),
    ).toEqual(file("band notes\nx\n"));
    expect(
      at((await run(flagged, { path: "/readme.md", content: "x\n", append: false })).root, "/readme.md"),
    ).toEqual(file("x\n"));
  });

  it("answers the text where no file is given to write it to", async () => {
    const say = tool(
      "write_line",
      "Write a line to a file, or answer it when no file is given.",
      { line: text, file: text },
      ["line"],
      [],
      outputs({ output: text }),
    );
    const told = await run(say, { line: "encore" });
    expect(told.answer).toEqual({ output: "encore" });
    expect(told.root).toEqual((drive().drive as { root: unknown }).root);
    const written = await run(say, { line: "encore\n", file: "/readme.md" });
    expect(at(written.root, "/readme.md")).toEqual(file("encore\n"));
  });

  it("removes what each kind of remove takes", async () => {
    const anything = tool("delete_path", "Delete a file or a folder.", path);
    expect(at((await run(anything, { path: "/readme.md" })).root, "/readme.md")).toBeUndefined();
    expect(at((await run(anything, { path: "/demos" })).root, "/demos")).toBeUndefined();
    const files = tool("delete_files", "Delete a file.", path);
    expect((await run(files, { path: "/demos" })).code).toBe("IS_A_DIRECTORY");
    const whole = tool("rmtree", "Remove a folder and all it holds.", path);
    expect(at((await run(whole, { path: "/lyrics" })).root, "/lyrics")).toBeUndefined();
    expect((await run(whole, { path: "/readme.md" })).code).toBe("NOT_A_DIRECTORY");
  });
});

describe("worlds with two trees", () => {
  it("keeps a current folder per tree", async () => {
    const two = { drive: folder({ lyrics: folder({}) }), archive: folder({ old: folder({}) }) };
    const cd = tool("change_archive_folder", "Go into a folder of the archive.", path);
    const { after } = await call(world(two, [cd]), "change_archive_folder", { path: "old" });
    expect(after.runtime).toEqual({ cwd_archive: "/old" });
  });
});

describe("the words a tool's name may use for each operation", () => {
  type Check = (result: Awaited<ReturnType<typeof run>>) => void;
  const answers =
    (expected: unknown): Check =>
    (result) =>
      expect(result.answer).toEqual(expected);
  const holds =
    (where: string, node: unknown): Check =>
    (result) =>
      expect(at(result.root, where)).toEqual(node);
  const gone =
    (where: string): Check =>
    (result) =>
      expect(at(result.root, where)).toBeUndefined();
  const lyric = "/lyrics/road.txt";
  const moves = { source: text, destination: text };
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>, Check]> = [
    ["getcwd", {}, {}, answers("/")],
    ["get_cwd", {}, {}, answers("/")],
    ["show_pwd", {}, {}, answers("/")],
    ["get_current_directory", {}, {}, answers("/")],
    ["working_folder", {}, {}, answers("/")],
    ["list_current_folder", {}, {}, answers(["lyrics", "setlists", "demos", "readme.md"])],
    ["chdir_to", path, { path: "/lyrics" }, answers("/lyrics")],
    ["cd_into", path, { path: "/lyrics" }, answers("/lyrics")],
    ["ls_folder", path, { path: "/setlists" }, answers(["june.txt"])],
    ["listdir", path, { path: "/setlists" }, answers(["june.txt"])],
    ["scandir", path, { path: "/setlists" }, answers(["june.txt"])],
    ["readdir", path, { path: "/setlists" }, answers(["june.txt"])],
    ["folder_tree", path, { path: "/setlists" }, answers(["june.txt"])],
    ["mkdir_at", path, { path: "/covers" }, holds("/covers", folder({}))],
    ["makedirs", path, { path: "/covers" }, holds("/covers", folder({}))],
    ["mkdirs", path, { path: "/covers" }, holds("/covers", folder({}))],
    ["make_folder", path, { path: "/covers" }, holds("/covers", folder({}))],
    ["new_directory", path, { path: "/covers" }, holds("/covers", folder({}))],
    ["add_folder", path, { path: "/covers" }, holds("/covers", folder({}))],
    ["unlink", path, { path: lyric }, gone(lyric)],
    ["rmtree", path, { path: "/lyrics" }, gone("/lyrics")],
    [
      "copyfile",
      moves,
      { source: lyric, destination: "/road.txt" },
      holds("/road.txt", file("miles and miles\n")),
    ],
    [
      "copytree",
      moves,
      { source: "/lyrics", destination: "/old" },
      holds("/old/road.txt", file("miles and miles\n")),
    ],
    [
      "copy2",
      moves,
      { source: lyric, destination: "/road.txt" },
      holds("/road.txt", file("miles and miles\n")),
    ],
    ["touch_file", path, { path: "/demos/a.txt" }, holds("/demos/a.txt", file(""))],
    ["create_file", path, { path: "/demos/a.txt" }, holds("/demos/a.txt", file(""))],
    ["make_file", path, { path: "/demos/a.txt" }, holds("/demos/a.txt", file(""))],
    ["rmdir_now", path, { path: "/demos" }, gone("/demos")],
    ["remove_directory", path, { path: "/demos" }, gone("/demos")],
    ["rm_folder", path, { path: "/demos" }, gone("/demos")],
    ["rm_path", path, { path: lyric }, gone(lyric)],
    ["remove_path", path, { path: lyric }, gone(lyric)],
    ["unlink_path", path, { path: lyric }, gone(lyric)],
    [
      "mv_path",
      moves,
      { source: lyric, destination: "/road.txt" },
      holds("/road.txt", file("miles and miles\n")),
    ],
    ["move_path", moves, { source: lyric, destination: "/road.txt" }, gone(lyric)],
    [
      "cp_path",
      moves,
      { source: lyric, destination: "/road.txt" },
      (r) => {
        holds(lyric, file("miles and miles\n"))(r);
        holds("/road.txt", file("miles and miles\n"))(r);
      },
    ],
    [
      "grep_lines",
      { path: text, pattern: text },
      { path: lyric, pattern: "miles" },
      answers(["miles and miles"]),
    ],
    ["sort_lines", path, { path: "/setlists/june.txt" }, answers("ocean\nroad")],
    ["head_lines", path, { path: "/setlists/june.txt" }, answers("ocean\nroad")],
    ["tail_lines", path, { path: "/setlists/june.txt" }, answers("ocean\nroad")],
    [
      "diff_files",
      { file_a: text, file_b: text },
      { file_a: lyric, file_b: lyric },
      (r) => expect(r.notes).toContain("reads file_a and file_b and answers the lines that differ"),
    ],
    ["du_folder", path, { path: "/setlists" }, answers(11)],
    ["disk_usage", path, { path: "/setlists" }, answers(11)],
    ["stat_path", path, { path: "/setlists" }, (r) => expect(r.answer).toMatchObject({ type: "directory" })],
    ["path_info", path, { path: "/setlists" }, (r) => expect(r.answer).toMatchObject({ type: "directory" })],
    ["find_files", { pattern: text }, { pattern: "june*" }, answers(["./setlists/june.txt"])],
    ["search_paths", { pattern: text }, { pattern: "june*" }, answers(["./setlists/june.txt"])],
    ["locate_file", { pattern: text }, { pattern: "june*" }, answers(["./setlists/june.txt"])],
    ["echo_to_file", { path: text, text: text }, { path: lyric, text: "x" }, holds(lyric, file("x"))],
    ["write_path", { path: text, text: text }, { path: lyric, text: "x" }, holds(lyric, file("x"))],
    ["save_path", { path: text, text: text }, { path: lyric, text: "x" }, holds(lyric, file("x"))],
    ["put_file", { path: text, text: text }, { path: lyric, text: "x" }, holds(lyric, file("x"))],
    ["upload_file", { path: text, text: text }, { path: lyric, text: "x" }, holds(lyric, file("x"))],
    [
      "append_path",
      { path: text, text: text },
      { path: lyric, text: "x" },
      holds(lyric, file("miles and miles\nx")),
    ],
    ["cat_file", path, { path: lyric }, answers("miles and miles\n")],
    ["view_path", path, { path: lyric }, answers("miles and miles\n")],
    ["show_file", path, { path: lyric }, answers("miles and miles\n")],
    ["display_file", path, { path: lyric }, answers("miles and miles\n")],
    ["get_file", path, { path: lyric }, answers("miles and miles\n")],
    ["open_path", path, { path: lyric }, answers("miles and miles\n")],
  ];
  for (const [name, properties, args, check] of cases)
    it(`${name} does what its words say`, async () => {
      const made = tool(name, "An operation on the drive.", properties, Object.keys(args));
      check(await run(made, args));
    });
});

describe("what the report says, and the outputs an answer goes to", () => {
  it("notes each operation and where its answer goes", async () => {
    const info = tool(
      "file_info",
      "What a path is.",
      path,
      ["path"],
      [],
      outputs({ type: text, size: integer, path: text }),
    );
    const described = await run(info, { path: "/readme.md" });
    expect(described.answer).toEqual({ type: "file", size: 11, path: "/readme.md" });
    expect(described.notes).toContain("info in the tree, answering type, size, path");
    const list = tool("list_folder", "List a folder.", path, [], [], outputs({ listing: text }));
    expect((await run(list, { path: "/lyrics" })).notes).toContain(
      "list in the tree, answered under listing",
    );
    const grep = tool("grep_file", "Lines containing a pattern.", { path: text, pattern: text });
    expect((await run(grep, { path: "/readme.md", pattern: "band" })).notes).toContain(
      "reads path and answers grep's result on its text",
    );
    const make = tool("create_folder", "Make a folder.", path);
    expect((await run(make, { path: "/covers" })).notes).toContain("mkdir in the tree");
  });

  it("notes how a write treats the file's text", async () => {
    const save = tool("save_file", "Write text to a file.", { path: text, content: text });
    expect((await run(save, { path: "/readme.md", content: "x" })).notes).toContain("writes content to path");
    const add = tool("save_line", "Appends a line to a file.", { path: text, line: text });
    const added = await run(add, { path: "/readme.md", line: "x\n" });
    expect(added.notes).toContain("appends line to path");
    expect(at(added.root, "/readme.md")).toEqual(file("band notes\nx\n"));
    const flagged = tool("save_file", "Write text to a file.", { path: text, content: text, append: bool }, [
      "path",
      "content",
    ]);
    expect((await run(flagged, { path: "/readme.md", content: "x" })).notes).toContain(
      "writes (appends when append) content to path",
    );
  });

  it("creates a missing file only where one sentence says it creates it when missing", async () => {
    const backup = tool(
      "save_file",
      "Writes text to an existing file and creates a backup of it. A missing file is refused.",
      { path: text, content: text },
    );
    expect((await run(backup, { path: "/lyrics/new.txt", content: "x" })).code).toBe(
      "NO_SUCH_FILE_OR_DIRECTORY",
    );
  });

  it("answers the count under the one numeric output, and the lines asked for by any count name", async () => {
    const usage = tool("disk_usage", "Bytes used.", path, [], [], outputs({ size: integer, folder: text }));
    expect((await run(usage, { path: "/setlists" })).answer).toEqual({ size: 11 });
    const head = tool("file_head", "The first lines.", { path: text, n: number }, ["path"]);
    expect((await run(head, { path: "/lyrics/ocean.txt", n: 1 })).answer).toBe("la la");
    const tail = tool("file_tail", "The last lines.", { path: text, count: integer }, ["path"]);
    expect((await run(tail, { path: "/lyrics/ocean.txt", count: 2 })).answer).toBe(
      "the tide comes in\nla la",
    );
  });

  it("answers the path a change made under a text output that names one, not under a flag", async () => {
    const make = tool(
      "create_folder",
      "Make a folder.",
      path,
      ["path"],
      [],
      outputs({ success: bool, location: text }),
    );
    expect((await run(make, { path: "/covers" })).answer).toEqual({ success: true, location: "/covers" });
  });

  it("knows a documented error by its errno alone, and words the errors it adds as a shell would", async () => {
    const list = tool(
      "list_folder",
      "List a folder.",
      path,
      ["path"],
      [error("ENOTDIR", "Cannot list that.")],
    );
    expect((await run(list, { path: "/readme.md" })).code).toBe("ENOTDIR");
    const read = tool("read_file", "Read a file.", path);
    const { tool: inferredRead } = await call(world(drive(), [read]), "read_file", { path: "/x" });
    expect(inferredRead.errors).toContainEqual(
      expect.objectContaining({
        code: "NO_SUCH_FILE_OR_DIRECTORY",
        status: 404,
        when: "The path does not suit the operation (missing), as a shell would say.",
      }),
    );
  });
});
