"""The use cases: one function per thing a user does, each taking the unit of work and the acting user."""
