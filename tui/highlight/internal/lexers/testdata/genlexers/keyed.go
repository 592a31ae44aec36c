package main

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// chromaPath is the package whose struct literals keyed rewrites.
const chromaPath = "github.com/alecthomas/chroma/v2"

// rewrite returns src (the file name of chroma's lexers package) with a
// field name before each element of every unkeyed struct literal of one of
// chroma's types, each XML lexer made at init from the table instead of
// its file (xmlLexerCalls), and each type-remapping lexer's table built on
// first use (remapCalls). The file is type-checked alone, its
// package's other names left unresolved: a literal of chroma's types is
// typed from the dot import whatever the other files declare.
func rewrite(fset *token.FileSet, name string, src []byte, imp types.Importer) ([]byte, error) {
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: imp, Error: func(error) {}} // the package's other files are not given
	_, _ = conf.Check("lexers", fset, []*ast.File{f}, info)    // the errors are the missing files' names
	ed := append(xmlLexerCalls(fset, f), remapCalls(fset, f)...)
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok || len(lit.Elts) == 0 {
			return true
		}
		if _, isKV := lit.Elts[0].(*ast.KeyValueExpr); isKV {
			return true
		}
		st := chromaStruct(info.Types[lit].Type)
		if st == nil {
			return true
		}
		for i, e := range lit.Elts {
			at := fset.Position(e.Pos()).Offset
			ed = append(ed, edit{at, at, st.Field(i).Name() + ": "})
		}
		return true
	})
	res, err := format.Source(apply(src, ed))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return res, nil
}

// chromaStruct is t's struct when t is a struct type named in chroma.
func chromaStruct(t types.Type) *types.Struct {
	for {
		p, ok := t.(*types.Pointer)
		if !ok {
			break
		}
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != chromaPath {
		return nil
	}
	st, _ := named.Underlying().(*types.Struct)
	return st
}

// edit replaces src[from:to] with text.
type edit struct {
	from, to int
	text     string
}

// apply makes edits (none overlapping) to a copy of src.
func apply(src []byte, edits []edit) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].from > edits[j].from })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.from], append([]byte(e.text), out[e.to:]...)...)
	}
	return out
}

// xmlLexerCalls are the edits that turn each MustNewXMLLexer(embedded,
// "embedded/NAME.xml") of f into MustNewLexer(xmlLexerParts("NAME.xml")):
// the lexer's configuration from the table and its rules read on first
// use, where chroma's parses the file's configuration and compiles its
// content analyser at every start.
func xmlLexerCalls(fset *token.FileSet, f *ast.File) []edit {
	var ed []edit
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 2 {
			return true
		}
		fun, ok := call.Fun.(*ast.Ident)
		if sel, isSel := call.Fun.(*ast.SelectorExpr); isSel {
			fun, ok = sel.Sel, true
		}
		fs, isIdent := call.Args[0].(*ast.Ident)
		path, isLit := call.Args[1].(*ast.BasicLit)
		if !ok || fun.Name != "MustNewXMLLexer" || !isIdent || fs.Name != "embedded" || !isLit || path.Kind != token.STRING {
			return true
		}
		file := strings.TrimPrefix(strings.Trim(path.Value, "\"`"), "embedded/")
		ed = append(ed, edit{fset.Position(fun.Pos()).Offset, fset.Position(call.Rparen).Offset + 1,
			fmt.Sprintf("MustNewLexer(xmlLexerParts(%q))", file)})
		return true
	})
	return ed
}

// remapCalls are the edits that turn each TypeRemappingLexer call of f
// into typeRemappingLexer (lexers.go): the same lexer, whose look-up table
// of every remapped word (the Lisps' builtins) is built when it first
// tokenises instead of at every start.
func remapCalls(fset *token.FileSet, f *ast.File) []edit {
	var ed []edit
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fun, ok := call.Fun.(*ast.Ident); ok && fun.Name == "TypeRemappingLexer" {
				at := fset.Position(fun.Pos()).Offset
				ed = append(ed, edit{at, at + len(fun.Name), "typeRemappingLexer"})
			}
		}
		return true
	})
	return ed
}
