package sessions

import (
	"path/filepath"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
)

// crushSchema is crush's sessions table (charmbracelet/crush
// internal/db/migrations/20250424200609_initial.sql: sessions(id,
// parent_session_id, title, message_count, ..., updated_at, created_at),
// times written by strftime('%s', 'now'): seconds) and its messages(
// session_id, role). A session with a parent is a child's (a subagent's).
// The database is the project's: every top-level session of it is this
// workspace's.
var crushSchema = &dbSchema{
	agent:    wire.AgentCrush,
	sessions: "sessions", id: "id", parent: "parent_session_id", title: "title",
	created: "created_at", updated: "updated_at", emptyParent: true,
	messages: "messages", msgSession: "session_id", msgRole: "role",
}

// crushDataDir is crush's default data directory, in the project.
const crushDataDir = ".crush"

// crushDBName is the database's name in a data directory.
const crushDBName = "crush.db"

// crushFiles are the databases of the workspace's crush project: its
// .crush/crush.db, and the data directory crush's projects.json records
// for the workspace when it is another (crush's data_directory option).
func crushFiles(workspace, globalData string, m *cwdMatcher) []dbFile {
	files := []dbFile{{dir: workspace, name: crushDataDir + "/" + crushDBName}}
	for _, dir := range crushProjects(globalData, m) {
		files = append(files, dbFile{dir: dir, name: crushDBName})
	}
	return uniqueFiles(files)
}

// maxProjectsBytes bounds what is read of projects.json.
const maxProjectsBytes = 1 << 20

// crushProject is one entry of projects.json (charmbracelet/crush
// internal/projects/projects.go: {path, data_dir, last_accessed}).
type crushProject struct {
	Path    string `json:"path"`
	DataDir string `json:"data_dir"`
}

// crushProjects are the data directories projects.json (in globalData)
// records for the workspace root; a relative one is the project's.
func crushProjects(globalData string, m *cwdMatcher) []string {
	if globalData == "" {
		return nil
	}
	root, err := fsguard.OpenRoot(globalData)
	if err != nil {
		return nil
	}
	defer root.Close()
	data, _, err := root.ReadFile("projects.json", maxProjectsBytes)
	if err != nil {
		return nil
	}
	var list struct {
		Projects []crushProject `json:"projects"`
	}
	if wire.Unmarshal(data, &list) != nil {
		return nil
	}
	var dirs []string
	for _, p := range list.Projects {
		if p.DataDir == "" || !filepath.IsAbs(p.Path) || !m.matches([]byte(p.Path)) {
			continue
		}
		dir := p.DataDir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(p.Path, dir)
		}
		dirs = append(dirs, filepath.Clean(dir))
	}
	return dirs
}
