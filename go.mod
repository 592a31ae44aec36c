module github.com/scoutdev/scout

go 1.26.7

require golang.org/x/sys v0.47.0
