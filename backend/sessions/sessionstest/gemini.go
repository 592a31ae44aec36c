package sessionstest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Gemini CLI's store, as GeminiSession writes it, from google-gemini/
// gemini-cli at revision 5411f113cafae26161b4969b0237b8e1e024e2c2:
//
//   - packages/core/src/utils/paths.ts: the home is $GEMINI_CLI_HOME, else
//     the user's (homedir); the store is <home>/.gemini (GEMINI_DIR);
//     getProjectHash is the hex SHA-256 of the project root.
//   - packages/core/src/config/storage.ts: a project's files are in
//     .gemini/tmp/<project id>/ (getProjectTempDir).
//   - packages/core/src/config/projectRegistry.ts: the project id is the
//     root's base name slugified (lower case, non-alphanumerics to "-",
//     runs collapsed, ends trimmed; "-1", "-2"... on collisions), recorded
//     in .gemini/projects.json {"projects": {root: id}} and in the
//     ownership marker tmp/<id>/.project_root holding the root; older
//     versions named the folder by the project hash (storageMigration).
//   - packages/core/src/services/chatRecordingService.ts: histories are
//     tmp/<id>/chats/session-<YYYY-MM-DDThh-mm>-<first 8 of the session
//     id>.jsonl; a subagent's is chats/<parent id>/<id>.jsonl. The first
//     line is the metadata {sessionId, projectHash, startTime, lastUpdated,
//     kind ("main" | "subagent"), directories}; each message is appended
//     as a line {id, timestamp, type, content, displayContent} (gemini
//     messages add thoughts, tokens, model) followed by {"$set":
//     {"lastUpdated": ...}} (recordMessage, updateMetadata); a summary is
//     {"$set": {"summary": ...}} (saveSummary); a rewind {"$rewindTo": id}.
//   - packages/core/src/services/chatRecordingTypes.ts: the record types.
//   - packages/cli/src/utils/sessionUtils.ts: the resume list skips
//     subagent sessions and those without resumable content; `gemini
//     --resume` takes the session id (findSession).

// GeminiSession describes one generated Gemini CLI history.
type GeminiSession struct {
	// ID is the session id (a UUID).
	ID string
	// Dir is the project root: the folder's marker and the projectHash.
	Dir string
	// Folder overrides the project folder's name (the slug of Dir's base
	// name); HashFolder names it by the project hash with no marker, as
	// before the registry existed.
	Folder     string
	HashFolder bool
	// ProjectHash overrides the recorded projectHash.
	ProjectHash string
	// Prompt is the first user message's text ("" writes none).
	Prompt string
	// Turns is how many user/gemini exchanges are written; 0 means 1.
	Turns int
	// TextBytes pads every gemini reply to about this many bytes.
	TextBytes int
	// Summary appends a $set of the summary.
	Summary string
	// RewindTo, when not 0, appends {"$rewindTo": the id of that message}
	// (1 is the first message written) after the turns, as /rewind does;
	// After is then a user message written after the rewind.
	RewindTo int
	After    string
	// Subagent writes a subagent's history (kind "subagent") under
	// chats/<Parent>/.
	Subagent bool
	Parent   string
	// Malformed inserts a line that is not JSON after the metadata.
	Malformed bool
	// OversizedBytes appends a gemini message of exactly that many bytes.
	OversizedBytes int
	// Incomplete ends the file with half a record and no newline.
	Incomplete bool
	// Start is the session's start (Epoch when zero).
	Start time.Time
}

// GeminiProjectHash is Gemini CLI's getProjectHash.
func GeminiProjectHash(root string) string {
	sum := sha256.Sum256([]byte(root))
	return hex.EncodeToString(sum[:])
}

var notSlug = regexp.MustCompile(`[^a-z0-9]+`)

// GeminiProjectFolder is the project id Gemini CLI gives root when no
// other project has claimed it.
func GeminiProjectFolder(root string) string {
	s := strings.Trim(notSlug.ReplaceAllString(strings.ToLower(filepath.Base(root)), "-"), "-")
	if s == "" {
		return "project"
	}
	return s
}

func (g GeminiSession) folder() string {
	switch {
	case g.Folder != "":
		return g.Folder
	case g.HashFolder:
		return GeminiProjectHash(g.Dir)
	}
	return GeminiProjectFolder(g.Dir)
}

// Path is where g is written below a GEMINI_CLI_HOME.
func (g GeminiSession) Path(home string) string {
	chats := filepath.Join(home, ".gemini", "tmp", g.folder(), "chats")
	if g.Subagent {
		return filepath.Join(chats, g.Parent, g.ID+".jsonl")
	}
	t := g.Start
	if t.IsZero() {
		t = Epoch
	}
	return filepath.Join(chats, "session-"+t.UTC().Format("2006-01-02T15-04")+"-"+g.ID[:8]+".jsonl")
}

// WriteGemini streams g into home (a GEMINI_CLI_HOME), with its project's
// marker and registry entry, and returns the bytes written.
func WriteGemini(home string, g GeminiSession) (int64, error) {
	if !g.HashFolder {
		if err := writeGeminiProject(home, g.folder(), g.Dir); err != nil {
			return 0, err
		}
	}
	return writeFile(g.Path(home), func(w *countingWriter) { g.write(w) })
}

// writeGeminiProject writes a project folder's ownership marker and adds
// it to projects.json.
func writeGeminiProject(home, folder, root string) error {
	dir := filepath.Join(home, ".gemini", "tmp", folder)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ".project_root"), []byte(root), 0o644); err != nil {
		return err
	}
	registry := filepath.Join(home, ".gemini", "projects.json")
	data, _ := os.ReadFile(registry)
	entries := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(string(data)), `{"projects":{`), "}}")
	entry := quote(root) + ":" + quote(folder)
	if strings.Contains(entries, entry) {
		return nil
	}
	if entries != "" {
		entries += ","
	}
	return os.WriteFile(registry, []byte(`{"projects":{`+entries+entry+"}}"), 0o644)
}

func (g GeminiSession) write(w *countingWriter) {
	c := newClock(g.Start)
	id := newUUIDs(g.ID)
	hash := g.ProjectHash
	if hash == "" {
		hash = GeminiProjectHash(g.Dir)
	}
	kind, dirs := `"main"`, ""
	if g.Subagent {
		kind, dirs = `"subagent"`, `,"directories":[`+quote(g.Dir)+`]`
	}
	fmt.Fprintf(w, `{"sessionId":%q,"projectHash":%q,"startTime":%q,"lastUpdated":%q,"kind":%s%s}`+"\n", g.ID, hash, c.peek(), c.peek(), kind, dirs)
	if g.Malformed {
		w.WriteString("{\"$set\": this line is not JSON\n")
	}
	for i := range max(g.Turns, 1) {
		if g.Prompt != "" {
			text := g.Prompt
			if i > 0 {
				text = fmt.Sprintf("and then step %d", i)
			}
			fmt.Fprintf(w, `{"id":%q,"timestamp":%q,"type":"user","content":[{"text":%s}]}`+"\n", id.next(), c.peek(), quote(text))
			fmt.Fprintf(w, `{"$set":{"lastUpdated":%q}}`+"\n", c.next())
		}
		fmt.Fprintf(w, `{"id":%q,"timestamp":%q,"type":"gemini","content":`, id.next(), c.peek())
		padString(w, fmt.Sprintf("reply %d of %s", i, g.ID), g.TextBytes)
		w.WriteString(`,"thoughts":[],"tokens":{"input":10,"output":20,"cached":0,"thoughts":0,"tool":0,"total":30},"model":"gemini-2.5-pro"}` + "\n")
		fmt.Fprintf(w, `{"$set":{"lastUpdated":%q}}`+"\n", c.next())
	}
	if g.OversizedBytes > 0 {
		head := fmt.Sprintf(`{"id":%q,"timestamp":%q,"type":"gemini","content":`, id.next(), c.next())
		w.WriteString(head)
		padString(w, "", g.OversizedBytes-len(head)-len(`}`))
		w.WriteString("}\n")
	}
	if g.RewindTo > 0 {
		target := newUUIDs(g.ID)
		for range g.RewindTo - 1 {
			target.next()
		}
		fmt.Fprintf(w, `{"$rewindTo":%q}`+"\n", target.next())
		if g.After != "" {
			fmt.Fprintf(w, `{"id":%q,"timestamp":%q,"type":"user","content":[{"text":%s}]}`+"\n", id.next(), c.next(), quote(g.After))
		}
	}
	if g.Summary != "" {
		fmt.Fprintf(w, `{"$set":{"summary":%s}}`+"\n", quote(g.Summary))
	}
	if g.Incomplete {
		fmt.Fprintf(w, `{"id":%q,"timestamp":%q,"type":"us`, id.next(), c.next())
	}
}
