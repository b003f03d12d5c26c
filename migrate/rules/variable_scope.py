"""TF104: functions that create variables under variable_scope → Keras Layer / Model classes."""

from __future__ import annotations

from . import Rule

RULE = Rule(
    id="TF104",
    name="variable-scope-to-layer",
    summary=(
        "Turn variable-creating functions (and a graph class's static methods and "
        "`variable_scope` blocks) into Keras Layers and Models named by their scopes."
    ),
    doc=(
        "A function that creates variables with `tf.get_variable` becomes a "
        "`tf.keras.layers.Layer`: its first parameter is the input, the others become "
        "constructor arguments, the weights are created in `build` with `self.add_weight(name, "
        "shape, initializer)` (TF1's initializer made explicit; Keras 3 requires one) and the "
        "body runs in `call`. A function that calls such functions under "
        "`tf.variable_scope(name)` becomes a `tf.keras.Model` holding one layer instance per "
        "scope (`name=` keeps TF1's variable names); `reuse=True` calls the same instance. "
        "The model is created once, under the function's old name, so its call sites stay. "
        "Layers a loop creates (`name=\"hidden%d\" % i`) become lists built by the same loop; "
        "configuration the function's one call gives as literals goes to the constructor; a "
        "function scoped by its parameter (`tf.variable_scope(scope)`) makes one model per call, "
        "named by that call's scope. "
        "In the CIFAR-10 tutorial's layout, a model function whose `with "
        "tf.variable_scope(\"conv1\"):` blocks create weights directly gets one Layer per block "
        "(weights in `build`, a dimension read from a tensor's static shape computed there from "
        "`input_shape`; statements using no weight, such as the flattening reshape, stay in the "
        "model). Helpers whose body is one `tf.get_variable` (maybe under `tf.device`) are "
        "inlined at their calls first. "
        "A scope's `regularizer=` (which TF1's `get_variable` applied to every variable "
        "without one of its own, biases included) becomes the `kernel_regularizer` and "
        "`bias_regularizer` of each dense or convolution layer in it, and reads of "
        "`REGULARIZATION_LOSSES` become the model's `losses`. "
        "A function whose `tf.Variable(<op>(shape, ...), name=...)` weights take their shape "
        "from its input's (`x.get_shape().as_list()[-1]`, `int(x.shape[-1])`) under "
        "`tf.name_scope(name)` becomes a Layer built from `input_shape`; a random initial value "
        "stays that op, drawn by the weight's initializer with the op seed TF1's graph gave it "
        "(the layer's `seed`); unnamed contrib layers of a model function called once take "
        "TF1's default scope names (`fully_connected`, `fully_connected_1`). "
        "A graph class whose `__init__` opens `tf.variable_scope(scope)` with a constructor "
        "argument (`QNetwork(\"online\")`, `QNetwork(\"target\")`) names each instance's "
        "variables from it (`name=f'{scope}/w1'`, TF1's names); a listing by that scope "
        "(`tf.trainable_variables(scope=self.scope)`, `tf.get_collection(TRAINABLE_VARIABLES, "
        "scope=...)`) becomes the instance's variables in creation order, made attributes when a "
        "method lists them. A scope whose variables are not all plain assignments (a helper or "
        "layer creating more) keeps its listing under tf.compat.v1."
    ),
    kind="auto",
)
