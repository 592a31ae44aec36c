module github.com/scoutdev/scout

go 1.26.7

require github.com/sahilm/fuzzy v0.1.3
