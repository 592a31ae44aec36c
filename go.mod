module github.com/scoutdev/scout

go 1.26.7
