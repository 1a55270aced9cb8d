"""The knowledge base: its data model, value types, texts and their ids, loading, validation and worked examples."""
