"""Run sites: which calls run a session, what they fetch and feed, which ones go (move/run_sites.py)."""

import libcst as cst
from helpers import expression, move_state

from migrate.codegen import code
from migrate.graph_classes import ExternalRun
from migrate.move import run_sites

PROGRAM = "import tensorflow as tf\n"


def call(source: str) -> cst.Call:
    node = expression(source)
    assert isinstance(node, cst.Call)
    return node


def session_move():
    move = move_state(PROGRAM)
    move.scope.sessions.add("sess")
    return move


def test_a_session_run_gives_its_fetches_and_its_feed() -> None:
    move = session_move()
    site = run_sites.run_site(move, call("sess.run([loss, train], feed_dict={x: batch})"))
    assert site is not None
    assert (code(site[0]), code(site[1])) == ("[loss, train]", "{x: batch}")
    fetch, feed = run_sites.run_site(move, call("sess.run(loss, {x: batch})"))  # type: ignore[misc]
    assert (code(fetch), code(feed)) == ("loss", "{x: batch}")


def test_runs_of_what_is_not_a_session_or_a_graph_node_are_no_run_sites() -> None:
    move = session_move()
    assert run_sites.run_site(move, call("app.run(main)")) is None
    assert run_sites.run_site(move, call("sess.eval(loss)")) is None  # a session has no eval
    assert run_sites.run_site(move, call("sess.run()")) is None


def test_initializer_runs_and_session_closes_go_other_runs_stay() -> None:
    move = session_move()
    assert run_sites.is_noop_session_call(move, call("sess.run(tf.global_variables_initializer())"))
    assert run_sites.is_noop_session_call(move, call("sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])"))
    assert run_sites.is_noop_session_call(move, call("sess.close()"))
    assert not run_sites.is_noop_session_call(move, call("sess.run(loss)"))
    assert not run_sites.is_noop_session_call(move, call("sess.run([tf.global_variables_initializer(), loss])"))
    assert not run_sites.is_noop_session_call(move, call("other.close()"))


def test_a_run_of_an_instance_attribute_names_the_fetched_and_fed_attributes() -> None:
    instances = {"model"}
    assert run_sites.instance_run(call("sess.run(model.loss, {model.x: xs, model.y: ys})"), instances) == ExternalRun("loss", ("x", "y"))
    assert run_sites.instance_run(call("sess.run([model.loss, model.acc])"), instances) == ExternalRun("[loss, acc]", ())
    assert run_sites.instance_run(call("sess.run((model.loss,))"), instances) == ExternalRun("(loss,)", ())
    # a driver class's attribute holding the model: `self.net` of `self.sess.run(self.net.loss)`
    assert run_sites.instance_run(call("self.sess.run(self.net.loss, {self.net.x: xs})"), {"self.net"}) == ExternalRun("loss", ("x",))
    assert run_sites.instance_run(call("self.sess.run(self.net.loss, {x: xs})"), {"self.net"}) is None
    # positions the result unpacks into `_`
    target = cst.parse_expression("_, loss, _")
    assert run_sites.instance_run(call("sess.run([model.train, model.loss, model.acc])"), instances, target) == ExternalRun(
        "[train, loss, acc]", (), (0, 2))
    # another owner in the fetch or the feed: not a step of the instance's class
    assert run_sites.instance_run(call("sess.run([model.loss, other.acc])"), instances) is None
    assert run_sites.instance_run(call("sess.run(model.loss, {x: xs})"), instances) is None
    assert run_sites.instance_run(call("sess.run(other.loss)"), instances) is None
