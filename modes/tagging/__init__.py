"""Reading words, not characters: a maintained segmenter (jieba) with the workspace's data words as its user dictionary,
and word lists as data (words.toml)."""
