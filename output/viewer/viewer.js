// linkage viewer: animates the scene that output.WriteViewer embeds as JSON (id "scene")
// with three.js, and draws its plot panels with uPlot, a cursor following the animation.
// window.linkageViewer exposes the state the browser tests read back.
(function () {
	'use strict';
	const S = JSON.parse(document.getElementById('scene').textContent);
	for (const k of ['bodies', 'ground', 'joints', 'springs', 'trails', 'panels']) S[k] = S[k] || [];
	for (const b of S.bodies) b.points = b.points || [];
	const is3 = S.dim === 3;
	const nb = S.bodies.length, ps = is3 ? 7 : 3, nf = S.t.length;
	const palette = [0x0072b2, 0xd55e00, 0x009e73, 0xcc79a7, 0xe69f00, 0x56b4e9, 0x444444];
	const V = (x, y, z) => new THREE.Vector3(x, y, z);
	let cur = 0;

	// The world position of point p of body b (-1: ground) at frame k.
	function worldPoint(b, k, p) {
		if (b < 0) return V(p[0], p[1], p[2]);
		const q = S.poses[k], o = b * ps;
		if (!is3) {
			const c = Math.cos(q[o + 2]), s = Math.sin(q[o + 2]);
			return V(q[o] + c * p[0] - s * p[1], q[o + 1] + s * p[0] + c * p[1], p[2]);
		}
		const rot = new THREE.Quaternion(q[o + 4], q[o + 5], q[o + 6], q[o + 3]).normalize();
		return V(p[0], p[1], p[2]).applyQuaternion(rot).add(V(q[o], q[o + 1], q[o + 2]));
	}

	// Bounds of everything drawn, over all frames; L is the model's size.
	const box = new THREE.Box3();
	for (let k = 0; k < nf; k++) {
		for (let b = 0; b < nb; b++) {
			box.expandByPoint(worldPoint(b, k, [0, 0, 0]));
			for (const p of S.bodies[b].points) box.expandByPoint(worldPoint(b, k, p));
		}
	}
	for (const p of S.ground) box.expandByPoint(V(p[0], p[1], p[2]));
	const L = Math.max(box.getSize(V()).length(), 1e-3);
	const barR = 0.006 * L, ballR = 0.014 * L;

	// Up is against gravity (z for a 3D model without gravity, y in 2D).
	let up = V(0, 1, 0);
	if (is3) {
		const g = V(S.gravity[0], S.gravity[1], S.gravity[2]);
		up = g.lengthSq() > 0 ? g.normalize().negate() : V(0, 0, 1);
	}

	const view = document.getElementById('view'), info = document.getElementById('info');
	const scene = new THREE.Scene();
	scene.background = new THREE.Color(0xf4f6f8);
	scene.add(new THREE.AmbientLight(0xffffff, 1.2));
	const sun = new THREE.DirectionalLight(0xffffff, 2.0);
	sun.position.copy(up.clone().multiplyScalar(2).add(V(1, 0.5, 0.7)));
	scene.add(sun);

	let renderer = null;
	try {
		renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
		renderer.setPixelRatio(window.devicePixelRatio || 1);
		view.appendChild(renderer.domElement);
	} catch (e) {
		info.textContent = 'WebGL is not available in this browser: ' + e.message;
	}

	function material(color) {
		return new THREE.MeshStandardMaterial({ color: color, roughness: 0.6, metalness: 0.1 });
	}
	function cylinderBetween(a, b, r, mat) {
		const d = V(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
		const len = d.length();
		const m = new THREE.Mesh(new THREE.CylinderGeometry(r, r, Math.max(len, 1e-9), 16), mat);
		m.position.set((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2);
		if (len > 0) m.quaternion.setFromUnitVectors(V(0, 1, 0), d.normalize());
		return m;
	}
	function shapeMesh(sh, mat) {
		if (sh.kind === 'box') return new THREE.Mesh(new THREE.BoxGeometry(sh.size[0], sh.size[1], sh.size[2]), mat);
		if (sh.kind === 'sphere') return new THREE.Mesh(new THREE.SphereGeometry(sh.radius, 24, 16), mat);
		const a = V(sh.axis[0], sh.axis[1], sh.axis[2]).normalize().multiplyScalar(sh.length / 2);
		return cylinderBetween([-a.x, -a.y, -a.z], [a.x, a.y, a.z], sh.radius, mat);
	}

	// Bodies: bars between their markers (every pair up to four markers, else from the
	// centre of mass), a ball at the centre of mass, and the shape when the model gives one.
	const groups = S.bodies.map((body, b) => {
		const g = new THREE.Group();
		g.name = body.name;
		const mat = material(palette[b % palette.length]);
		const pts = body.points;
		if (pts.length >= 2 && pts.length <= 4) {
			for (let i = 0; i < pts.length; i++)
				for (let j = i + 1; j < pts.length; j++) g.add(cylinderBetween(pts[i], pts[j], barR, mat));
		} else {
			for (const p of pts) g.add(cylinderBetween([0, 0, 0], p, barR, mat));
		}
		if (body.shape) g.add(shapeMesh(body.shape, mat));
		g.add(new THREE.Mesh(new THREE.SphereGeometry(barR * 1.8, 16, 12), mat));
		scene.add(g);
		return g;
	});

	// Ground: a block at each ground marker, a grid below the model.
	const groundMat = material(0x888888);
	for (const p of S.ground) {
		const m = new THREE.Mesh(new THREE.BoxGeometry(ballR * 2.4, ballR * 2.4, ballR * 2.4), groundMat);
		m.position.set(p[0], p[1], p[2]);
		scene.add(m);
	}
	{
		const size = L * 1.5, grid = new THREE.GridHelper(size, 15, 0xbbbbbb, 0xdddddd);
		const c = box.getCenter(V());
		grid.quaternion.setFromUnitVectors(V(0, 1, 0), is3 ? up : V(0, 0, 1));
		if (is3) {
			// the plane through the lowest corner of the bounds, as seen along up
			let low = Infinity;
			for (let i = 0; i < 8; i++) {
				const corner = V(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z);
				low = Math.min(low, corner.dot(up));
			}
			grid.position.copy(c.clone().addScaledVector(up, low - c.dot(up)));
		} else {
			grid.position.set(c.x, c.y, -L * 0.05);
		}
		scene.add(grid);
	}

	// Joints: a ball at marker J (on a translational joint, the point that slides).
	const jointMat = material(0x222222);
	const joints = S.joints.map(j => {
		const m = new THREE.Mesh(new THREE.SphereGeometry(ballR, 16, 12), jointMat);
		scene.add(m);
		return m;
	});

	// Springs: a coil (3D) or zigzag (2D) between the two markers, rebuilt every frame.
	const coilN = 97;
	const springs = S.springs.map(s => {
		const geo = new THREE.BufferGeometry();
		geo.setAttribute('position', new THREE.Float32BufferAttribute(new Float32Array(coilN * 3), 3));
		const line = new THREE.Line(geo, new THREE.LineBasicMaterial({ color: 0xb03030 }));
		scene.add(line);
		return line;
	});
	function placeSpring(line, a, b) {
		const d = b.clone().sub(a), len = d.length(), pos = line.geometry.attributes.position;
		const e = len > 0 ? d.clone().divideScalar(len) : V(1, 0, 0);
		let u = Math.abs(e.z) < 0.9 ? V(0, 0, 1).cross(e).normalize() : V(1, 0, 0).cross(e).normalize();
		const w = e.clone().cross(u), r = 0.012 * L, turns = 8;
		for (let i = 0; i < coilN; i++) {
			const s = i / (coilN - 1), ends = s < 0.08 || s > 0.92, ang = 2 * Math.PI * turns * s;
			const p = a.clone().addScaledVector(d, s);
			if (!ends) {
				if (is3) p.addScaledVector(u, r * Math.cos(ang)).addScaledVector(w, r * Math.sin(ang));
				else p.addScaledVector(u, r * Math.sin(ang));
			}
			pos.setXYZ(i, p.x, p.y, p.z);
		}
		pos.needsUpdate = true;
		line.geometry.computeBoundingSphere();
	}

	// Trails: the path of each chosen point over the whole run, drawn up to the frame shown.
	const trails = S.trails.map((tr, i) => {
		const arr = new Float32Array(nf * 3);
		for (let k = 0; k < nf; k++) {
			const p = worldPoint(tr.body, k, tr.point);
			arr[3 * k] = p.x; arr[3 * k + 1] = p.y; arr[3 * k + 2] = p.z;
		}
		const geo = new THREE.BufferGeometry();
		geo.setAttribute('position', new THREE.Float32BufferAttribute(arr, 3));
		const line = new THREE.Line(geo, new THREE.LineBasicMaterial({ color: palette[(i + 3) % palette.length] }));
		scene.add(line);
		return line;
	});

	// Camera and controls: orbit, pan and zoom in 3D; pan and zoom in 2D.
	let camera;
	if (is3) {
		camera = new THREE.PerspectiveCamera(40, 1, L * 1e-3, L * 100);
		camera.up.copy(up);
	} else {
		camera = new THREE.OrthographicCamera(-1, 1, 1, -1, -L * 10, L * 10);
		camera.position.set(0, 0, L);
	}
	let controls = null;
	if (renderer) {
		controls = new THREE.OrbitControls(camera, renderer.domElement);
		if (!is3) {
			controls.enableRotate = false;
			controls.mouseButtons = { LEFT: THREE.MOUSE.PAN, MIDDLE: THREE.MOUSE.DOLLY, RIGHT: THREE.MOUSE.PAN };
			controls.touches = { ONE: THREE.TOUCH.PAN, TWO: THREE.TOUCH.DOLLY_PAN };
		}
		controls.addEventListener('change', render);
	}

	function viewSize() {
		return [Math.max(view.clientWidth, 1), Math.max(view.clientHeight, 1)];
	}
	// frameModel fits the bounds of the whole run into the view.
	function frameModel() {
		const [w, h] = viewSize(), c = box.getCenter(V()), size = box.getSize(V());
		if (is3) {
			const dir = V(1, -1.6, 0.9);
			if (up.y > 0.9) dir.set(1.2, 0.9, 1.6);
			dir.normalize();
			const r = Math.max(size.length() / 2, 1e-3), dist = r / Math.sin((camera.fov * Math.PI / 360)) * 0.8;
			camera.aspect = w / h;
			camera.position.copy(c.clone().addScaledVector(dir, dist));
			camera.near = dist / 100; camera.far = dist * 100;
		} else {
			const sx = Math.max(size.x, 1e-3) * 1.15, sy = Math.max(size.y, 1e-3) * 1.15;
			const scale = Math.max(sx / w, sy / h);
			camera.left = -w * scale / 2; camera.right = w * scale / 2;
			camera.top = h * scale / 2; camera.bottom = -h * scale / 2;
			camera.zoom = 1;
			camera.position.set(c.x, c.y, L);
		}
		camera.updateProjectionMatrix();
		if (controls) { controls.target.copy(c); controls.update(); }
		render();
	}
	function resize() {
		const [w, h] = viewSize();
		if (renderer) renderer.setSize(w, h);
		for (const p of plots) p.setSize({ width: plotWidth(), height: 170 });
		frameModel();
	}

	// setFrame moves everything to frame k.
	function setFrame(k) {
		cur = Math.max(0, Math.min(nf - 1, k | 0));
		const q = S.poses[cur];
		for (let b = 0; b < nb; b++) {
			const g = groups[b], o = b * ps;
			if (is3) {
				g.position.set(q[o], q[o + 1], q[o + 2]);
				g.quaternion.set(q[o + 4], q[o + 5], q[o + 6], q[o + 3]).normalize();
			} else {
				g.position.set(q[o], q[o + 1], 0);
				g.rotation.set(0, 0, q[o + 2]);
			}
		}
		S.joints.forEach((j, i) => joints[i].position.copy(worldPoint(j.j.body, cur, j.j.point)));
		S.springs.forEach((s, i) => placeSpring(springs[i], worldPoint(s.i.body, cur, s.i.point), worldPoint(s.j.body, cur, s.j.point)));
		for (const t of trails) t.geometry.setDrawRange(0, cur + 1);
		slider.value = cur;
		timeLabel.textContent = 't = ' + S.t[cur].toFixed(3) + ' s';
		simT = S.t[cur];
		for (const p of plots) {
			if (p.cursor.left < 0) p.setLegend({ idx: cur }); // the legend shows the values at the frame
			p.redraw(false, false);
		}
		render();
	}
	function render() {
		if (renderer) renderer.render(scene, camera);
	}

	// The frame shown at time t: the last at or before it.
	function frameAt(t) {
		let lo = 0, hi = nf - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if (S.t[mid] <= t) lo = mid; else hi = mid - 1;
		}
		return lo;
	}

	// Controls: play/pause, slider, speed, loop, frame.
	const slider = document.getElementById('slider'), timeLabel = document.getElementById('time');
	const playBtn = document.getElementById('play'), speedSel = document.getElementById('speed');
	const loopBox = document.getElementById('loop');
	slider.max = nf - 1;
	let playing = false, simT = S.t[0], last = null;
	function setPlaying(on) {
		playing = on && nf > 1;
		playBtn.textContent = playing ? '❚❚' : '▶';
		if (playing && cur === nf - 1) setFrame(0);
		last = null;
	}
	playBtn.addEventListener('click', () => setPlaying(!playing));
	slider.addEventListener('input', () => { setPlaying(false); setFrame(+slider.value); });
	document.getElementById('frame').addEventListener('click', frameModel);
	window.addEventListener('keydown', e => {
		if (e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
		if (e.key === ' ') { setPlaying(!playing); e.preventDefault(); }
		else if (e.key === 'f') frameModel();
		else if (e.key === 'ArrowRight') setFrame(cur + 1);
		else if (e.key === 'ArrowLeft') setFrame(cur - 1);
	});
	function tick(now) {
		if (playing) {
			if (last !== null) {
				simT += (now - last) / 1000 * +speedSel.value;
				if (simT > S.t[nf - 1]) {
					if (loopBox.checked) simT = S.t[0] + (simT - S.t[nf - 1]) % Math.max(S.t[nf - 1] - S.t[0], 1e-9);
					else { simT = S.t[nf - 1]; setPlaying(false); }
				}
				const t = simT;
				setFrame(frameAt(simT));
				simT = t;
			}
			last = now;
		}
		requestAnimationFrame(tick);
	}

	// Plots: one panel per unit, cursor at the frame shown; a click sets the frame.
	const side = document.getElementById('side'), plots = [];
	function plotWidth() { return Math.max(side.clientWidth - 12, 200); }
	const css = c => '#' + c.toString(16).padStart(6, '0');
	function cursorLine(u) {
		const x = u.valToPos(S.t[cur], 'x', true), ctx = u.ctx;
		ctx.save();
		ctx.strokeStyle = '#c00';
		ctx.lineWidth = 1.5 * (window.devicePixelRatio || 1);
		ctx.beginPath();
		ctx.moveTo(x, u.bbox.top);
		ctx.lineTo(x, u.bbox.top + u.bbox.height);
		ctx.stroke();
		ctx.restore();
	}
	for (const panel of S.panels) {
		const div = document.createElement('div');
		side.appendChild(div);
		const unit = panel.unit ? ' [' + panel.unit + ']' : '';
		const opts = {
			width: plotWidth(), height: 170,
			series: [{ label: 't [s]' }].concat(panel.series.map((s, i) => ({ label: s.name + unit, stroke: css(palette[i % palette.length]), width: 1.5 }))),
			axes: [{ label: 't [s]' }, { label: panel.unit || '', size: 60 }],
			scales: { x: { time: false } },
			cursor: { sync: { key: 'linkage' } },
			hooks: { draw: [cursorLine] },
		};
		const u = new uPlot(opts, [S.t].concat(panel.series.map(s => s.y)), div);
		u.over.addEventListener('click', () => {
			if (u.cursor.left >= 0) { setPlaying(false); setFrame(frameAt(u.posToVal(u.cursor.left, 'x'))); }
		});
		plots.push(u);
	}

	info.textContent = (S.title || '') + ' — ' + nb + ' bodies, ' + nf + ' frames' + (is3 ? '' : ' (2D)');
	window.addEventListener('resize', resize);
	resize();
	setFrame(0);
	requestAnimationFrame(tick);

	// For tests and scripting: the state read back by the browser tests.
	window.linkageViewer = {
		ready: true,
		webgl: renderer !== null,
		bodies: groups.length,
		frames: nf,
		frame: () => cur,
		time: () => S.t[cur],
		setFrame: setFrame,
		play: setPlaying,
		playing: () => playing,
		panels: plots.length,
		// bodyPose(i): position, quaternion [w, x, y, z] and angle about z of body i as drawn.
		bodyPose: i => {
			const g = groups[i];
			g.updateMatrixWorld(true);
			const p = g.getWorldPosition(V()), q = g.getWorldQuaternion(new THREE.Quaternion());
			return { name: g.name, position: [p.x, p.y, p.z], quaternion: [q.w, q.x, q.y, q.z], angle: g.rotation.z };
		},
	};
})();
