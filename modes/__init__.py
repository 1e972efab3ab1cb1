"""Understanding: the clarification gate, slot resolution, the ordered mode table and tiers."""
