"""TF102: Session run sites → `@tf.function` step functions called with the fed values."""

from __future__ import annotations

from . import Rule

RULE = Rule(
    id="TF102",
    name="session-to-function",
    summary="Turn each distinct sess.run fetch into a tf.function; placeholders become arguments.",
    doc=(
        "Each distinct `sess.run(fetches, feed_dict)` (and `t.eval()`, `op.run()`) becomes a "
        "call to a `@tf.function` whose body is the backward slice of the fetches through the "
        "graph-building statements. Fed placeholders become its parameters, with an "
        "`input_signature` built from the placeholder's dtype and shape (a learning rate gets "
        "a scalar spec). The call returns what `sess.run` returned, as NumPy values. "
        "Variables, layers and optimizers are created once outside the functions. "
        "`with tf.Session() as sess:` is unwrapped, `sess = tf.Session()`, initializer runs "
        "and `sess.close()` disappear, and `sess.run(v)` of a variable becomes `v.numpy()`. "
        "Distinct run sites become distinct functions, so a step never runs another step's "
        "updates. The same move applies inside `def main():` (steps become nested functions), "
        "under `if __name__ == '__main__':`, in helper functions that call `sess.run`, and in "
        "classes that build their graph in `__init__` (`self.x = tf.placeholder(...)`): there "
        "the steps are tf.functions created in `__init__` and stored as `self.<fetch>`; a "
        "session argument passed to such a method becomes `None`. Tensors that are built but "
        "never run keep their code in a function of their own (reported, not called). "
        "A session's `ConfigProto`/`GPUOptions` built from literals becomes process settings "
        "right after `import tensorflow` (TF2 refuses them once an op has run): "
        "`gpu_options.allow_growth` → `tf.config.experimental.set_memory_growth` for each GPU, "
        "`allow_soft_placement` → `tf.config.set_soft_device_placement`, "
        "`log_device_placement` → `tf.debugging.set_log_device_placement`, "
        "`intra_op/inter_op_parallelism_threads` → `tf.config.threading.set_*`; options with no "
        "TF2 form (a GPU memory fraction, device counts) are dropped with an info finding."
    ),
    kind="auto",
)

# Canonical names of session and initializer constructors.
SESSION_CALLS = frozenset({"Session", "InteractiveSession"})
INIT_CALLS = frozenset({
    "global_variables_initializer", "initialize_all_variables", "local_variables_initializer",
    "initialize_local_variables", "variables_initializer", "tables_initializer",
})
